/// Which kept results of a file whose text has not changed a run may use when the tests have
/// changed since they were measured. A new or changed test can kill a survivor, so survivors,
/// runner time-outs, flaky and not-covered results run again; it cannot plausibly undo a kill
/// by a test that is still there, a crash, a named hang, a mutant the compiler refuses or an
/// equivalent mark (the verdicts file decides those anyway), so those are carried over. A test
/// removed or weakened can undo a kill all the same: `recheck` (`--recheck-kills`) runs every
/// result measured under other tests again, for a report that claims the score of a commit.
public struct CarryOver: Sendable {
  /// Outcomes kept across a change of the tests.
  public static let lasting: Set<Outcome> = [.killed, .crashed, .hung, .notCompiling]

  public var recheck: Bool
  /// The keys of the mutants marked equivalent (`Verdicts`).
  public var equivalent: Set<String>
  /// The tests of this run, to tell whether the test that killed a mutant is still there.
  public var testNames: TestNames

  public init(recheck: Bool, equivalent: Set<String>, testNames: TestNames) {
    self.recheck = recheck
    self.equivalent = equivalent
    self.testNames = testNames
  }

  /// Whether a run under the tests hashing to `tests` may use `result` (of a file whose text is
  /// the one it was measured on) instead of running its mutant again.
  public func keeps(_ result: MutantResult, tests: String) -> Bool {
    if result.tests == tests { return true }
    if recheck { return false }
    if result.outcome == .killed, let test = result.killedBy, !testNames.contains(test) {
      return false
    }
    return Self.lasting.contains(result.outcome) || equivalent.contains(result.mutant.key)
  }
}

/// The names of the tests in some test sources, as a test run names a failing test:
/// `name()` / `name(argument:)` for a function, `"words"` for a display name.
public struct TestNames: Sendable {
  var functions: Set<String> = []
  var displayNames: Set<String> = []

  public init(sources: [String]) {
    for source in sources {
      for line in source.split(separator: "\n") {
        if let range = line.range(of: "func ") {
          let name = line[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
          if !name.isEmpty { functions.insert(String(name)) }
        }
        // A display name may stand on a line of its own below `@Test(`: every string literal
        // on a line is a candidate (a name still in the sources is enough to keep a kill).
        guard line.contains("\"") else { continue }
        let pieces = line.split(separator: "\"", omittingEmptySubsequences: false)
        for index in stride(from: 1, to: pieces.count - 1, by: 2) {
          displayNames.insert(String(pieces[index]))
        }
      }
    }
  }

  /// Whether the test a run named `name` (`load_deliversX()`, `"words"`) is among these.
  public func contains(_ name: String) -> Bool {
    if name.hasPrefix("\""), name.hasSuffix("\""), name.count >= 2 {
      return displayNames.contains(String(name.dropFirst().dropLast()))
    }
    return functions.contains(String(name.prefix { $0 != "(" }))
  }
}
