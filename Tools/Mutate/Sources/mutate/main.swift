import Foundation
import MutateKit

let usage = """
  usage: mutate [--root DIR] (--module NAME ... | --file PATH ... | --changed [BASE])
                [--jobs N] [--report FILE] [--verdicts FILE] [--no-cache] [--recheck-kills]
                [--list] [--last-results] [--operators NAME,...]
         mutate --self-test [--root FIXTURE]

  Mutation testing for a Swift package (issue 31). Each module's mutants are compiled in at
  once behind a switch, and each runs only against the suites that run its line. A module at
  a time; the report is Markdown. Run it through scripts/mutate, which builds it first.

    --module NAME     every file of a module (repeatable)
    --file PATH       one file, relative to the root (repeatable)
    --changed [BASE]  the files of product modules changed since BASE (default: main),
                      committed or not
    --jobs N          test runs at once (default: the number of cores)
    --report FILE     where the Markdown report goes (default: stdout)
    --verdicts FILE   mutants marked equivalent, and survivors' behaviour in words
                      (default: Tools/Mutate/verdicts.txt under the root, if there)
    --no-cache        run every mutant again
    --recheck-kills   run again every kept result measured under other tests than today's,
                      kills included (by default a kill, crash, named hang or refusal of an
                      unchanged file is carried over a change of the tests, and survivors,
                      time-outs, flaky and not-covered results run again): before committing
                      a report that claims the score of a commit
    --list            print the mutants, build nothing
    --operators LIST  only these operators' mutants (boundary, negation, logical, arithmetic,
                      constant, duration, drop, ternary, precedence, branch, only-call): to run
                      a new operator over modules already run; the report's figures are then
                      of those mutants alone
    --last-results    report the last run's results (with today's verdicts) even where the
                      files or tests changed since, and those of a run stopped midway (a
                      file or mutant without a result is named, not run); runs nothing
  """

struct Options {
  var root = FileManager.default.currentDirectoryPath
  var modules: [String] = []
  var files: [String] = []
  var changed: String?
  var jobs = ProcessInfo.processInfo.activeProcessorCount
  var report: String?
  var verdicts: String?
  var useCache = true
  var recheckKills = false
  var list = false
  var lastResults = false
  var selfTest = false
  /// Only these operators' mutants (nil: every operator's).
  var operators: Set<MutationOperator>?
}

func parse(_ arguments: [String]) throws -> Options {
  var options = Options()
  var rest = arguments[...]
  func value(_ flag: String) throws -> String {
    guard let next = rest.popFirst() else { throw Failure("\(flag) needs a value\n\(usage)") }
    return next
  }
  while let argument = rest.popFirst() {
    switch argument {
    case "--root": options.root = try value(argument)
    case "--module": options.modules.append(try value(argument))
    case "--file": options.files.append(try value(argument))
    case "--changed":
      options.changed = rest.first.map { $0.hasPrefix("--") } == false ? rest.popFirst()! : "main"
    case "--jobs": options.jobs = Int(try value(argument)) ?? options.jobs
    case "--report": options.report = try value(argument)
    case "--verdicts": options.verdicts = try value(argument)
    case "--no-cache": options.useCache = false
    case "--recheck-kills": options.recheckKills = true
    case "--list": options.list = true
    case "--last-results": options.lastResults = true
    case "--self-test": options.selfTest = true
    case "--operators":
      let names = try value(argument).split(separator: ",").map(String.init)
      let kinds = names.compactMap(MutationOperator.init(rawValue:))
      guard kinds.count == names.count else {
        throw Failure(
          "--operators takes \(MutationOperator.allCases.map(\.rawValue).joined(separator: ", "))")
      }
      options.operators = Set(kinds)
    case "-h", "--help":
      print(usage)
      exit(0)
    default: throw Failure("unknown argument \(argument)\n\(usage)")
    }
  }
  if options.verdicts == nil {
    let standard = URL(fileURLWithPath: options.root).appendingPathComponent(
      "Tools/Mutate/verdicts.txt")
    if FileManager.default.fileExists(atPath: standard.path) { options.verdicts = standard.path }
  }
  return options
}

func main() throws -> Int32 {
  var options = try parse(Array(CommandLine.arguments.dropFirst()))
  if options.selfTest {
    options.modules = ["Thermostat"]
    options.useCache = false
  }
  let runner = try Runner(options: options)
  if options.selfTest {
    // The fixture's suites that fail once keep their marks in the scratch folder.
    try? FileManager.default.removeItem(at: runner.work.appendingPathComponent("profiles"))
  }
  let package = try runner.graph()

  // What to run: modules, and in each the files (nil: all of them).
  var plan: [(module: String, files: [String]?)] = options.modules.map { ($0, nil) }
  var files = options.files
  if let base = options.changed {
    let changed = try Shell.check(
      ["git", "diff", "--name-only", base, "--", "Sources"], in: runner.root)
    files += changed.split(separator: "\n").map(String.init).filter {
      $0.hasSuffix(".swift")
        && FileManager.default.fileExists(atPath: runner.root.appendingPathComponent($0).path)
    }
  }
  for file in files {
    guard let target = package.graph.target(holding: file), target.type != "test" else {
      runner.log("skipped \(file): not in a product module")
      continue
    }
    if let index = plan.firstIndex(where: { $0.module == target.name }) {
      if plan[index].files != nil { plan[index].files?.append(file) }
    } else {
      plan.append((target.name, [file]))
    }
  }
  guard !plan.isEmpty else {
    runner.log(options.changed != nil ? "no changed product file" : usage)
    return options.changed != nil ? 0 : 2
  }

  let started = Date()
  var modules: [(name: String, results: [MutantResult], seconds: Double)] = []
  for (module, moduleFiles) in plan {
    let moduleStarted = Date()
    let results = try runner.run(module: module, files: moduleFiles, package: package)
    modules.append((module, results, Date().timeIntervalSince(moduleStarted)))
  }
  if options.list { return 0 }

  let commit =
    (try? Shell.check(["git", "rev-parse", "--short", "HEAD"], in: runner.root))?
    .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
  let dirty =
    ((try? Shell.check(["git", "status", "--porcelain", "--", "Sources"], in: runner.root)) ?? "")
      .isEmpty ? "" : " (with uncommitted changes to Sources)"
  let date = ISO8601DateFormatter().string(from: started)
  let carried =
    runner.carriedOver == 0
    ? []
    : [
      "\(runner.carriedOver) results carried over from runs under earlier tests (kills, crashes, "
        + "named hangs, refusals, equivalent marks of unchanged files); --recheck-kills "
        + "measures every one under this commit's tests"
    ]
  let report = Report(
    title: "Mutation report: " + modules.map(\.name).joined(separator: ", "),
    header: [
      "date: \(date)", "commit: \(commit)\(dirty)",
      "runner: Tools/Mutate \(Runner.version), \(options.jobs) test runs at once",
      String(format: "wall time: %.1f min", Date().timeIntervalSince(started) / 60),
    ] + carried,
    modules: modules, verdicts: runner.verdicts)
  if let path = options.report {
    try report.markdown.write(toFile: path, atomically: true, encoding: .utf8)
    runner.log("report: \(path)")
  } else {
    print(report.markdown, terminator: "")
  }
  for module in modules {
    let tally = report.tally(module.results)
    runner.log(
      "\(module.name): \(tally.failing) of \(tally.counted) killed by a failing test (\(tally.scoreText))"
    )
  }

  if options.selfTest {
    return selfTest(
      modules.first?.results ?? [], coverage: runner.work.appendingPathComponent("coverage.json"))
  }
  return 0
}

/// The fixture's verdicts are known (Tools/Mutate/Fixture/Package.swift says why).
func selfTest(_ results: [MutantResult], coverage: URL) -> Int32 {
  func outcome(_ key: String) -> Outcome? {
    results.first { $0.mutant.key.hasSuffix("/" + key) }?.outcome
  }
  let expected: [(String, String, Outcome)] = [
    (
      "heating: < → <= survives (tested far from its bound)", "Thermostat.swift:9: < → <=",
      .survived
    ),
    ("cooling: > → >= is killed (tested on its bound)", "Thermostat.swift:12: > → >=", .killed),
    (
      "ventilating: != → == is killed only by a (not end-to-end) test that fails unmutated too",
      "Thermostat.swift:15: != → ==", .flaky
    ),
    ("label: + → - on text does not compile", "Thermostat.swift:17: + → -", .notCompiling),
    (
      "idle: == → != is killed once by a slow suite that passes when run again with it: flaky",
      "Thermostat.swift:20: == → !=", .flaky
    ),
    (
      "a constant of a file no coverage report shows is run by the module's own tests",
      "ThermostatDefaults.swift:4: 20 → 21", .killed
    ),
    (
      "a constant of a file no coverage report shows is run by the module's own tests",
      "ThermostatDefaults.swift:4: 20 → 19", .killed
    ),
  ]
  var failed = results.count != expected.count
  if failed {
    print(
      "self-test: expected \(expected.count) mutants, found \(results.count): "
        + results.map(\.mutant.key).joined(separator: ", "))
  }
  // The two operators that replace a choice by one branch and leave out a closure's only call.
  let operators = MutantFinder().mutants(
    in: """
      func state(_ past: Bool) -> Int { past ? 1 : 2 }
      func clear(_ lock: Lock) { queue.async { lock.withLockedValue { $0 = 0 } } }
      func total(_ xs: [Int]) -> [Int] { xs.map { abs($0) } }
      var level = 0 { didSet { notify(level) } }

      """, file: "Operators.swift"
  ).map(\.key)
  for (expected, present) in [
    ("Operators.swift:1: past ? 1 : 2 → 1", true), ("Operators.swift:1: past ? 1 : 2 → 2", true),
    ("only call `lock.withLockedValue { $0 = 0 }` → (nothing)", true),
    ("only call `notify(level)` → (nothing)", true),
  ] {
    let found = operators.contains { $0.hasSuffix(expected) }
    print("self-test: \(found == present ? "ok  " : "FAIL") operator: \(expected)")
    if found != present { failed = true }
  }
  // The same change twice on a line: each twin has a key of its own, so a verdict names one.
  let twins = MutantFinder().mutants(
    in: "func hours(_ s: Int) -> Int { s % 3600 == 0 ? s / 3600 : 0 }\n", file: "Twins.swift"
  ).map(\.key).filter { $0.contains("3600 → 3599") }
  let distinct = twins == ["Twins.swift:1: 3600 → 3599", "Twins.swift:1: 3600 → 3599 #2"]
  print(
    "self-test: \(distinct ? "ok  " : "FAIL") twins on a line have keys of their own: "
      + twins.joined(separator: ", "))
  if !distinct { failed = true }
  // A delegating initializer's `self.init(…)` or `super.init(…)` is never dropped (it cannot
  // compile without it); another call in an initializer is.
  let initializers = MutantFinder().mutants(
    in: """
      struct Box { var a: Int
        init(a: Int) { self.a = a }
        init() { self.init(a: 1); log() }
      }
      class Sub: Base { override init() { super.init(); log() } }

      """, file: "Initializers.swift"
  ).filter { $0.mutationOperator == .droppedStatement }.map(\.key)
  let keptInits =
    initializers == [
      "Initializers.swift:3: call `log()` → (nothing)",
      "Initializers.swift:5: call `log()` → (nothing)",
    ]
  print(
    "self-test: \(keptInits ? "ok  " : "FAIL") self.init and super.init are never dropped: "
      + initializers.joined(separator: ", "))
  if !keptInits { failed = true }
  // A branch of an `#if` that is not compiled here gets no mutant; one that is, or that cannot
  // be told, does.
  let branches = MutantFinder().mutants(
    in: """
      #if canImport(Darwin)
        let a = 1
      #elseif os(Linux) && !arch(mips)
        let b = 2
      #else
        let c = 3
      #endif
      #if compiler(>=6.0)
        let d = 4
      #endif

      """, file: "Branches.swift"
  ).map(\.line)
  #if os(Linux)
    let wantedLines = [4, 9]
  #else
    let wantedLines = [2, 9]
  #endif
  let onlyCompiled = Array(Set(branches)).sorted() == wantedLines
  print(
    "self-test: \(onlyCompiled ? "ok  " : "FAIL") only branches of an #if compiled here, or not "
      + "known, are mutated: lines \(Array(Set(branches)).sorted()) of 2, 4, 6, 9")
  if !onlyCompiled { failed = true }
  // A mark whose code moved is found again at the nearest line making the same change; not
  // when two lines are as near, nor on a mutant that has a mark of its own.
  let moving = MutantFinder().mutants(
    in: """
      func a(_ x: Int) -> Bool { x < 1 }

      func b(_ x: Int) -> Bool { x < 2 }
      func c(_ x: Int) -> Bool { x > 3 }

      """, file: "Moved.swift")
  func moves(_ marks: String...) -> [String] {
    let text = marks.map { "equivalent | Moved.swift:\($0) | a reason" }.joined(separator: "\n")
    return Verdicts(text: text).following(moving).moves.map { "\($0.from) → \($0.to)" }
  }
  let between = moves("2: < → <=", "6: > → >=")
  let beside = moves("2: < → <=", "3: < → <=")
  let followed =
    between == ["Moved.swift:6: > → >= → Moved.swift:4: > → >="]
    && beside == ["Moved.swift:2: < → <= → Moved.swift:1: < → <="]
  print(
    "self-test: \(followed ? "ok  " : "FAIL") a moved mark is found at the nearest line with its "
      + "change, unless two are as near or that one has its own: "
      + (between + beside).joined(separator: "; "))
  if !followed { failed = true }
  // A suite that fails its first coverage run (a timing test under load) is tried again and
  // used, not left out (Fixture/Tests/ThermostatTests/FailsOnceTests.swift).
  let kept = (try? Data(contentsOf: coverage)).flatMap {
    try? JSONDecoder().decode(Runner.KeptCoverage.self, from: $0)
  }
  let retried =
    kept?.coverage.seconds["ThermostatTests.FailsOnceTests"] != nil && kept?.failed == []
  print(
    "self-test: \(retried ? "ok  " : "FAIL") a suite that fails its first coverage run is tried "
      + "again and used: "
      + (kept?.coverage.seconds["ThermostatTests.FailsOnceTests"] == nil ? "not used" : "used")
      + ", left out: \(kept?.failed.map { $0.description } ?? "unknown")")
  if !retried { failed = true }
  // A process a run leaves behind, outside the run's process group, is found by the mutant
  // variable it inherited and killed: sh starts a `sleep` in a session of its own and ends.
  let orphan = Shell.run(
    ["/bin/sh", "-c", "setsid sleep 300 </dev/null >/dev/null 2>&1 & echo $!"],
    in: URL(fileURLWithPath: "/"), environment: [Runner.variable: "-1"])
  let orphanPID = pid_t(orphan.output.trimmingCharacters(in: .whitespacesAndNewlines))
  let swept = killProcesses(withEnvironment: Runner.variable, equalTo: "-1")
  #if os(Linux)
    // Gone, or a zombie waiting for init: either way its environment reads empty (5 s at most).
    var ended = false
    for _ in 0..<50 where !ended {
      let left = orphanPID.flatMap { FileManager.default.contents(atPath: "/proc/\($0)/environ") }
      ended = left?.isEmpty ?? true
      if !ended { usleep(100_000) }
    }
    let sweeps = orphanPID != nil && swept == 1 && ended
  #else
    let (sweeps, ended) = (swept == 0, true)
  #endif
  print(
    "self-test: \(sweeps ? "ok  " : "FAIL") a process a run leaves in a session of its own is "
      + "killed by its mutant variable: pid \(orphanPID.map(String.init) ?? "none"), "
      + "killed \(swept), \(ended ? "ended" : "still running")")
  if !sweeps { failed = true }
  let cacheCheck = cacheSelfTest()
  for line in cacheCheck.lines { print(line) }
  if cacheCheck.failed { failed = true }
  for (what, key, wanted) in expected {
    let got = outcome(key)
    print("self-test: \(got == wanted ? "ok  " : "FAIL") \(what): \(got?.rawValue ?? "no mutant")")
    if got != wanted { failed = true }
  }
  print(failed ? "self-test failed" : "self-test passed")
  return failed ? 1 : 0
}

do {
  exit(try main())
} catch {
  FileHandle.standardError.write(Data("mutate: \(error)\n".utf8))
  exit(1)
}
