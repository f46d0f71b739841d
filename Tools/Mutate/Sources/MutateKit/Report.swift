import Foundation

/// The figures of one module or one file.
public struct Tally: Sendable {
  public var generated = 0
  public var notCompiling = 0
  public var equivalent = 0
  public var killed = 0
  public var crashed = 0
  public var hung = 0
  public var timedOut = 0
  public var flaky = 0
  public var survived = 0
  public var notCovered = 0

  public init() {}

  public mutating func add(_ outcome: Outcome, equivalent isEquivalent: Bool) {
    generated += 1
    if outcome == .notCompiling {
      notCompiling += 1
      return
    }
    if isEquivalent, !outcome.isKilled {
      equivalent += 1
      return
    }
    switch outcome {
    case .killed: killed += 1
    case .crashed: crashed += 1
    case .hung: hung += 1
    case .timedOut: timedOut += 1
    case .flaky: flaky += 1
    case .survived: survived += 1
    case .notCovered: notCovered += 1
    case .notCompiling: break
    }
  }

  /// The mutants that count: they compile and are not equivalent.
  public var counted: Int { generated - notCompiling - equivalent }
  /// Killed by a failing test (a crash included: the run fails).
  public var failing: Int { killed + crashed }
  /// The score: the share of counted mutants that a failing test kills.
  public var score: Double { counted == 0 ? 1 : Double(failing) / Double(counted) }

  public var scoreText: String { String(format: "%.1f %%", score * 100) }
}

/// The report of a run, in Markdown.
public struct Report {
  public var title: String
  public var header: [String]
  public var modules: [(name: String, results: [MutantResult], seconds: Double)]
  /// The verdicts file's marks, those whose code moved found again (`Verdicts.following`).
  public var verdicts: Verdicts
  /// The marks found at another line, for people to move in the file.
  public var moves: [Verdicts.Move]

  public init(
    title: String, header: [String],
    modules: [(name: String, results: [MutantResult], seconds: Double)],
    verdicts: Verdicts
  ) {
    self.title = title
    self.header = header
    self.modules = modules
    (self.verdicts, moves) = verdicts.following(modules.flatMap { $0.results.map(\.mutant) })
  }

  public func tally(_ results: [MutantResult]) -> Tally {
    var tally = Tally()
    for result in results {
      tally.add(result.outcome, equivalent: verdicts.equivalence(of: result.mutant) != nil)
    }
    return tally
  }

  public var markdown: String {
    var lines = ["# \(title)", ""]
    lines += header.map { "- \($0)" }
    lines += [
      "",
      "Score: the share of the mutants that compile and are not marked equivalent that a failing "
        + "test kills. \"hung\": only a `.hangLimit` named a hung test; \"timed out\": the runner's "
        + "limit ended a run that named nothing; \"flaky\": every suite that failed "
        + "failed again with no mutant in (not a kill); \"not covered\": no test "
        + "runs the line.",
      "",
      "| module | generated | not compiling | equivalent | killed | crashed | hung | timed out | flaky | survived | not covered | score | time |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for module in modules {
      let t = tally(module.results)
      lines.append(
        "| \(module.name) | \(t.generated) | \(t.notCompiling) | \(t.equivalent) | \(t.killed) | "
          + "\(t.crashed) | \(t.hung) | \(t.timedOut) | \(t.flaky) | \(t.survived) | \(t.notCovered) | "
          + "\(t.scoreText) | \(Self.minutes(module.seconds)) |")
    }
    for module in modules {
      lines += ["", "## \(module.name)", ""]
      lines += [
        "| file | generated | not compiling | equivalent | killed | hung / timed out | survived / not covered / flaky | score |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
      ]
      let byFile = Dictionary(grouping: module.results, by: \.mutant.file)
      for file in byFile.keys.sorted() {
        let t = tally(byFile[file] ?? [])
        lines.append(
          "| \((file as NSString).lastPathComponent) | \(t.generated) | \(t.notCompiling) | "
            + "\(t.equivalent) | \(t.failing) | \(t.hung + t.timedOut) | "
            + "\(t.survived + t.notCovered + t.flaky) | \(t.scoreText) |")
      }
      let sorted = module.results.sorted {
        ($0.mutant.file, $0.mutant.line) < ($1.mutant.file, $1.mutant.line)
      }
      let alive = sorted.filter {
        [.survived, .notCovered, .hung, .timedOut, .flaky].contains($0.outcome)
          && verdicts.equivalence(of: $0.mutant) == nil
      }
      if !alive.isEmpty {
        lines += ["", "Survivors (and mutants only a limit ended):", ""]
        for result in alive {
          let what: String
          switch result.outcome {
          case .notCovered: what = "survived, no test runs this line"
          case .hung: what = "hung; named by the hang limit of \(result.killedBy ?? "a test")"
          case .timedOut: what = "timed out with no failure named"
          case .flaky:
            what =
              "flaky: only \(result.killedBy ?? "a test") failed, and it fails unmutated too, "
              + "or passes when run again with the mutant (a slow suite)"
          default: what = "survived"
          }
          let behaviour = verdicts.behaviour(of: result.mutant) ?? Self.behaviour(result.mutant)
          lines.append("- `\(result.mutant.key)` (\(what)): \(behaviour)")
        }
      }
      let equivalents = sorted.compactMap { result in
        verdicts.equivalence(of: result.mutant).map { (result, $0) }
      }
      if !equivalents.isEmpty {
        lines += ["", "Marked equivalent (Tools/Mutate/verdicts.txt):", ""]
        for (result, reason) in equivalents {
          let note = result.outcome.isKilled ? " — **killed all the same: remove the mark**" : ""
          lines.append("- `\(result.mutant.key)`: \(reason)\(note)")
        }
      }
      let files = Set(module.results.map(\.mutant.file))
      let moved = moves.filter { move in files.contains { move.to.hasPrefix($0 + ":") } }
      if !moved.isEmpty {
        lines += [
          "", "Marks found at another line, their code having moved (counted there; move them):",
          "",
        ]
        lines += moved.map { "- verdicts.txt line \($0.line): `\($0.from)` → `\($0.to)`" }
      }
      let stale = verdicts.stale(against: module.results.map(\.mutant))
      if !stale.isEmpty {
        lines += ["", "Verdicts that name no mutant any more (fix or remove them):", ""]
        lines += stale.map { "- verdicts.txt line \($0.line): `\($0.key)`" }
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func minutes(_ seconds: Double) -> String {
    seconds < 90 ? String(format: "%.0f s", seconds) : String(format: "%.1f min", seconds / 60)
  }

  /// A survivor's behaviour in general words, where nobody wrote one.
  public static func behaviour(_ mutant: Mutant) -> String {
    switch mutant.mutationOperator {
    case .relationalBoundary:
      "a value exactly on this bound now lands on the other side of it"
    case .negatedCondition:
      mutant.replacement.hasPrefix("!(")
        ? "this condition is inverted: the other branch runs"
        : "the opposite of this test is taken"
    case .logical:
      mutant.replacement == "||"
        ? "one of the two conditions is now enough where both were needed"
        : "both conditions are now needed where one was enough"
    case .arithmetic: "this computation gives a wrong number"
    case .integerConstant: "this limit, size or count is off by one"
    case .durationConstant: "this time is ten times as long"
    case .droppedStatement: "this statement no longer runs and nothing notices its effect is gone"
    case .swappedTernary: "the two outcomes of this choice are swapped"
    case .swappedPrecedence: "the order of preference is reversed: the second one wins"
    case .ternaryBranch: "this choice always comes out the same way"
    case .droppedOnlyCall: "this call no longer runs and nothing notices its effect is gone"
    }
  }
}
