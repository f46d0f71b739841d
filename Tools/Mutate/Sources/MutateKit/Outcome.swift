/// What became of a mutant.
public enum Outcome: String, Codable, Sendable, CaseIterable {
  /// A test failed with an expectation or an error: the suite names the broken behaviour.
  case killed
  /// The test process crashed (a trap, a signal) before the tests could say what failed.
  case crashed
  /// Only a `.hangLimit` failed: a test named itself as hanging, and nothing else failed.
  case hung
  /// The runner's own limit ended the run: no test said anything.
  case timedOut
  /// The failing tests failed again with no mutant in, or (a slow suite's) passed when run again
  /// with the mutant in: a timing test under load, not a caught mutant. Counted, not killed.
  case flaky
  /// The tests that run the mutated line all passed.
  case survived
  /// No test runs the mutated line.
  case notCovered
  /// Does not compile: discarded, not counted.
  case notCompiling

  /// Counted in the score's denominator.
  public var isCounted: Bool { self != .notCompiling }
  public var isKilled: Bool {
    self == .killed || self == .crashed || self == .hung || self == .timedOut
  }

  /// Reads a test process's end: its status, whether the runner's limit ended it, what it printed.
  /// Returns the outcome and the first failing test's name, if one was named.
  public static func of(status: Int32, timedOut: Bool, output: String) -> (Outcome, String?) {
    if status == 0, !timedOut { return (.survived, nil) }
    let lines = output.split(whereSeparator: \.isNewline).map { stripANSI(String($0)) }
    // Swift Testing: "✘ Test name() recorded an issue at File.swift:12:5: Expectation failed…"
    // XCTest: "… error: -[Suite test] : XCTAssert… failed" / "Test Case '…' failed".
    let issues = lines.filter {
      ($0.contains("✘ Test ") && $0.contains("recorded an issue")) || $0.contains(": error: -[")
    }
    let hangs = issues.filter { $0.contains("did not finish within") }
    let named = issues.first.flatMap(testName(in:))
    if issues.count > hangs.count {
      // A test that failed before the runner's limit ended the run named the mutant all the same.
      let firstReal = issues.first { !$0.contains("did not finish within") }
      return (.killed, firstReal.flatMap(testName(in:)) ?? named)
    }
    if !hangs.isEmpty || lines.contains(where: { $0.hasPrefix("HangLimit:") }) {
      return (.hung, named)
    }
    if timedOut { return (.timedOut, nil) }
    return (.crashed, nil)
  }

  /// The suites (`Target.Suite/Inner`) of the failing test cases of a JUnit XML report, as
  /// Swift Testing writes it with `--xunit-output` (a failing `<testcase classname="…">` holds a
  /// `<failure`).
  public static func failingSuites(junit: String) -> Set<String> {
    Set(failingCases(junit: junit).map(\.suite))
  }

  /// The failing test cases of a JUnit XML report: each one's suite (`classname`) and test
  /// (`name`), in the report's order.
  public static func failingCases(junit: String) -> [(suite: String, test: String)] {
    func attribute(_ name: String, in chunk: Substring) -> String? {
      guard let start = chunk.range(of: " \(name)=\""),
        let end = chunk[start.upperBound...].firstIndex(of: "\"")
      else { return nil }
      return String(chunk[start.upperBound..<end])
    }
    var cases: [(suite: String, test: String)] = []
    for chunk in junit.components(separatedBy: "<testcase").dropFirst() {
      let body = chunk.components(separatedBy: "</testcase>").first ?? chunk
      let head = chunk[..<(chunk.firstIndex(of: ">") ?? chunk.endIndex)]
      guard body.contains("<failure"), let suite = attribute("classname", in: head) else {
        continue
      }
      cases.append((suite, attribute("name", in: head) ?? ""))
    }
    return cases
  }

  static func testName(in line: String) -> String? {
    guard let range = line.range(of: "✘ Test ") else { return nil }
    let rest = line[range.upperBound...]
    guard let end = rest.range(of: " recorded an issue") else { return nil }
    return String(rest[..<end.lowerBound])
  }

  static func stripANSI(_ line: String) -> String {
    var out = ""
    var escaping = false
    for character in line {
      if escaping {
        if character.isLetter { escaping = false }
      } else if character == "\u{1B}" {
        escaping = true
      } else {
        out.append(character)
      }
    }
    return out
  }
}

/// A mutant and what became of it.
public struct MutantResult: Codable, Sendable {
  public var mutant: Mutant
  public var outcome: Outcome
  /// The test that failed first, when one was named.
  public var killedBy: String?
  /// The suites that were run for it.
  public var suites: [String]
  public var seconds: Double
  /// The hash of the tests it was measured under (`Runner`'s tests hash); nil in a cache written
  /// before results carried it. A result measured under other tests than a run's may be carried
  /// over (`CarryOver`).
  public var tests: String?

  public init(
    mutant: Mutant, outcome: Outcome, killedBy: String? = nil, suites: [String] = [],
    seconds: Double = 0, tests: String? = nil
  ) {
    self.mutant = mutant
    self.outcome = outcome
    self.killedBy = killedBy
    self.suites = suites
    self.seconds = seconds
    self.tests = tests
  }
}
