import Foundation
import MutateKit

/// One module's run: find the mutants, compile them all in (schemata), learn which suites run
/// which lines (coverage of the unmutated build), then run each mutant against only those suites.
final class Runner: @unchecked Sendable {
  static let version = "2"
  static let variable = "MUTATE_ACTIVE_MUTANT"

  let options: Options
  let root: URL
  let work: URL
  let mirror: Mirror
  let verdicts: Verdicts
  /// Results of this run measured under other tests and used all the same (`CarryOver`).
  private(set) var carriedOver = 0

  init(options: Options) throws {
    self.options = options
    root = URL(fileURLWithPath: options.root).standardizedFileURL
    work = root.appendingPathComponent(".build/mutate")
    mirror = Mirror(source: root, root: work.appendingPathComponent("tree"))
    let verdictsFile = options.verdicts.map { URL(fileURLWithPath: $0) }
    verdicts = Verdicts(
      text: verdictsFile.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? "")
    for problem in verdicts.problems { log("verdicts: \(problem)") }
  }

  func log(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }

  // MARK: The package

  func graph() throws -> (name: String, graph: PackageGraph) {
    // Its own scratch folder: the package's may be locked by a build in progress.
    let json = try Shell.check(
      [
        "swift", "package", "--scratch-path", work.appendingPathComponent("dump").path,
        "dump-package",
      ],
      in: root)
    // SwiftPM may print a warning before the JSON.
    let start = json.firstIndex(of: "{") ?? json.startIndex
    let data = Data(json[start...].utf8)
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    return (object?["name"] as? String ?? "", try PackageGraph(dumpPackage: data))
  }

  func swiftFiles(in directory: String) -> [String] {
    let base = root.appendingPathComponent(directory)
    guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
    var files: [String] = []
    while let relative = walker.nextObject() as? String {
      if relative.hasSuffix(".swift") { files.append(directory + "/" + relative) }
    }
    return files.sorted()
  }

  func text(_ relative: String) -> String {
    (try? String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)) ?? ""
  }

  // MARK: A module

  func run(module: String, files wanted: [String]?, package: (name: String, graph: PackageGraph))
    throws -> [MutantResult]
  {
    guard let target = package.graph.targets[module] else { throw Failure("no target \(module)") }
    let files = swiftFiles(in: target.directory).filter { wanted?.contains($0) ?? true }
    let tests = package.graph.testTargets(seeing: module)
    log(
      "== \(module): \(files.count) files; tests that can see it: \(tests.joined(separator: ", "))")

    // Per file: its mutants (numbered across the module) and the hash of its text; the hash
    // of the tests is the module's (every test file that can see it, and the test support).
    var testsHash = FNV1a()
    testsHash.add(Self.version)
    var testSources: [String] = []
    for test in tests + package.graph.testSupport {
      for file in swiftFiles(in: package.graph.targets[test]?.directory ?? "Tests/\(test)") {
        let source = text(file)
        testsHash.add(file)
        testsHash.add(source)
        testSources.append(source)
      }
    }
    let testsKey = testsHash.hex
    var mutantsByFile: [String: [Mutant]] = [:]
    var nextID = 1
    for file in files {
      var found = MutantFinder().mutants(in: text(file), file: file, firstID: nextID)
      if let kinds = options.operators {
        found = found.filter { kinds.contains($0.mutationOperator) }.enumerated().map {
          var mutant = $0.element
          mutant.id = nextID + $0.offset
          return mutant
        }
      }
      nextID += found.count
      mutantsByFile[file] = found
    }
    if options.list {
      for file in files { for mutant in mutantsByFile[file] ?? [] { print(mutant.key) } }
      return []
    }
    // Results are kept as each mutant ends (not at the run's end), so a run stopped midway
    // resumes where it was: a file whose mutants all have usable results is not run again, and
    // of a file half done only the mutants without one are. Which results are usable when the
    // tests changed since: `CarryOver`.
    let cache = Locked(Cache(url: work.appendingPathComponent("cache/\(module).json")))
    let carryOver = CarryOver(
      recheck: options.recheckKills,
      equivalent: Set(verdicts.entries.filter { $0.kind == "equivalent" }.map(\.key)),
      testNames: TestNames(sources: testSources))
    var results: [MutantResult] = []
    var todo: [String] = []
    var sourceKeys: [String: String] = [:]
    var known: [String: [MutantResult]] = [:]
    var carried = 0
    var rerun = 0
    for file in files {
      let sourceKey = Cache.sourceKey(text(file))
      sourceKeys[file] = sourceKey
      let mutants = mutantsByFile[file] ?? []
      guard options.useCache else {
        cache.with { $0.start(file: file, source: sourceKey) }
        todo.append(file)
        continue
      }
      if options.lastResults {
        guard let cached = cache.current.results(file: file, source: nil) else {
          log("\(file): no results (not run)")
          continue
        }
        // Matched by place, not zipped in order: a file's results may come from several runs
        // (a module run, then `--file` runs), each numbering the mutants its own way.
        let matched = Cache.match(mutants, cached)
        results += matched
        if matched.count < mutants.count {
          // A run stopped midway: report what it did, and say what it did not.
          log(
            "\(file): \(mutants.count - matched.count) of \(mutants.count) mutants have no result")
        }
        continue
      }
      let usable = cache.current.usable(
        file: file, mutants: mutants, source: sourceKey, tests: testsKey, carryOver: carryOver)
      carried += usable.carried
      rerun += usable.rerun
      if usable.results.count == mutants.count {
        results += usable.results
      } else {
        known[file] = usable.results
        todo.append(file)
      }
    }
    let resumed = known.values.map(\.count).reduce(0, +)
    log(
      "\(results.count + resumed) results from the cache; \(todo.count) files to run"
        + (resumed > 0 ? " (\(resumed) of their mutants have results)" : ""))
    if options.useCache, !options.lastResults {
      log(
        options.recheckKills
          ? "--recheck-kills: \(rerun) results measured under other tests run again"
          : "carried over across a change of the tests: \(carried) results (kills, crashes, "
            + "named hangs, refusals, equivalent marks); \(rerun) others (survived, timed out, "
            + "flaky, not covered, or killed by a test no longer there) run again")
    }
    carriedOver += carried
    guard !todo.isEmpty else { return results }

    let fileKeys = sourceKeys
    let fresh = try runFiles(
      todo, of: module, directory: target.directory, mutants: mutantsByFile, known: known,
      tests: tests, package: package
    ) { result in
      var result = result
      result.tests = testsKey
      // Kept at once, whatever happens to the run after.
      cache.with { cache in
        cache.add(result, file: result.mutant.file, source: fileKeys[result.mutant.file] ?? "")
        do { try cache.save() } catch { self.log("cache: cannot save: \(error)") }
      }
    }
    results +=
      known.values.joined()
      + fresh.map { result in
        var result = result
        result.tests = testsKey
        return result
      }
    try cache.current.save()
    return results
  }

  /// Runs the mutants of `files` that have no result in `known`; `record` gets each result as
  /// soon as it is known (the mutants that do not compile once the build stands).
  private func runFiles(
    _ files: [String], of module: String, directory: String, mutants: [String: [Mutant]],
    known: [String: [MutantResult]], tests: [String], package: (name: String, graph: PackageGraph),
    record: @escaping @Sendable (MutantResult) -> Void
  ) throws -> [MutantResult] {
    try mirror.sync()
    let switchName = "__mutate_" + module.filter { $0.isLetter || $0.isNumber }
    try mirror.write(
      Data(Schemata.switchFile(switchName: switchName, variable: Self.variable).utf8),
      to: directory + "/__MutateSwitch.swift")

    // Build with every mutant in; drop those the compiler refuses, and build again.
    var live = mutants.filter { files.contains($0.key) }
    for file in files {
      let done = Set((known[file] ?? []).map(\.mutant.id))
      live[file]?.removeAll { done.contains($0.id) }
    }
    let pending = live
    var discarded: [Int: String] = [:]
    var schemata: [String: Schemata] = [:]
    for attempt in 1...12 {
      for file in files {
        let built = Schemata(source: text(file), mutants: live[file] ?? [], switchName: switchName)
        schemata[file] = built
        try mirror.write(Data(built.text.utf8), to: file)
      }
      log("build \(attempt): \(live.values.map(\.count).reduce(0, +)) mutants compiled in")
      let build = Shell.run(
        [
          "swift", "build", "--build-tests", "--enable-code-coverage", "-Xswiftc",
          "-no-warnings-as-errors",
        ], in: mirror.root, outputFile: work.appendingPathComponent("build.log"))
      if build.status == 0 { break }
      let errors = Self.errors(in: build.output, root: mirror.root)
      guard !errors.isEmpty, attempt < 12 else {
        throw Failure(
          "the build failed (see \(work.path)/build.log):\n\(build.output.suffix(3000))")
      }
      for (file, line, column, message) in errors {
        guard let built = schemata[file], let fileMutants = live[file] else {
          throw Failure("an error outside the mutated files: \(file):\(line): \(message)")
        }
        let offset = Schemata.offset(line: line, column: column, in: built.text)
        var blamed: [Int]
        let original =
          built.originalOffset(of: offset)
          ?? built.innermostGroup(at: offset).flatMap { group in
            fileMutants.first { group.ids.contains($0.id) }?.start
          } ?? 0
        let declaration = MutantFinder.declarationRange(in: text(file), around: original)
        let inside = fileMutants.filter { declaration.contains($0.start) }
        // The mutants whose harm shows elsewhere: a dropped statement (a constant left
        // uninitialized), a swapped `??` (a value become optional), a closure's only call left
        // out (the closure's result become `Void`, said where the closure is passed).
        let remote = inside.filter {
          [.droppedStatement, .swappedPrecedence, .droppedOnlyCall].contains($0.mutationOperator)
        }
        // "missing return in closure …" is a closure's only call left out: blaming the
        // declaration's other dropped statements with it would lose mutants that compile.
        let onlyCalls = remote.filter { $0.mutationOperator == .droppedOnlyCall }
        if let id = built.mutant(at: offset) {
          blamed = [id]
        } else if message.contains("closure"), !onlyCalls.isEmpty {
          blamed = onlyCalls.map(\.id)
        } else if !remote.isEmpty {
          blamed = remote.map(\.id)
        } else if let group = built.innermostGroup(at: offset) {
          blamed = group.ids
        } else {
          blamed = inside.isEmpty ? fileMutants.map(\.id) : inside.map(\.id)
        }
        for id in blamed where discarded[id] == nil {
          discarded[id] = "\(URL(fileURLWithPath: file).lastPathComponent):\(line): \(message)"
          let key = fileMutants.first { $0.id == id }?.key ?? "\(id)"
          log("does not compile: \(key) (\(discarded[id] ?? ""))")
        }
      }
      for file in files { live[file]?.removeAll { discarded[$0.id] != nil } }
    }
    var results: [MutantResult] = pending.values.joined()
      .filter { discarded[$0.id] != nil }
      .map { MutantResult(mutant: $0, outcome: .notCompiling, killedBy: discarded[$0.id]) }
    for result in results { record(result) }
    log("\(results.count) mutants do not compile (discarded)")

    let binary = mirror.root.appendingPathComponent(
      ".build/debug/\(package.name)PackageTests.xctest")
    // The package's executables too: end-to-end tests run them, and they write coverage of
    // their own.
    let executables = package.graph.targets.values.filter { $0.type == "executable" }
      .map { mirror.root.appendingPathComponent(".build/debug/\($0.name)").path }
      .filter { FileManager.default.fileExists(atPath: $0) }
    let coverage = try sharedCoverage(binary: binary, objects: executables, package: package)
    let toRun = files.flatMap { live[$0] ?? [] }.sorted { $0.id < $1.id }
    let done = Locked<[MutantResult]>([])
    let scratch = work.appendingPathComponent("profiles")
    try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    inParallel(toRun, jobs: options.jobs) { mutant in
      let path = self.mirror.root.appendingPathComponent(mutant.file).path
      let suites = coverage.suites(for: path, line: mutant.line, ownTests: module + "Tests")
      var result = MutantResult(mutant: mutant, outcome: .notCovered)
      if !suites.isEmpty {
        // The quick suites first, in one process; the slow ones (end-to-end, integration) only
        // for a mutant the quick ones let live: most mutants die in a second.
        let quick = suites.filter { (coverage.seconds[$0] ?? 1) <= 3 }
        let slow = suites.filter { (coverage.seconds[$0] ?? 1) > 3 }
        var seconds = 0.0
        var flakyBy: String?
        for (index, stage) in [quick, slow].enumerated() where !stage.isEmpty {
          let report = scratch.appendingPathComponent("m\(mutant.id).xml")
          let run = self.runTests(
            stage, binary: binary, mutant: mutant.id, coverage: coverage, scratch: scratch,
            junit: report)
          seconds += run.seconds
          var (outcome, test) = Outcome.of(
            status: run.status, timedOut: run.timedOut, output: run.output)
          let failingCases = Outcome.failingCases(
            junit: (try? String(contentsOf: report, encoding: .utf8)) ?? "")
          let failing = Set(failingCases.map(\.suite))
          try? FileManager.default.removeItem(at: report)
          Self.removeProfiles(of: mutant.id, in: scratch)
          if outcome == .killed, !failing.isEmpty {
            // Run the suites that failed once more with no mutant in. One that fails again
            // failed for the machine (a timing test under load, end-to-end or not: Core's
            // webhook suite "killed" a mutant of code compiled out on Linux), not for the
            // mutant; the mutant is killed only by a suite that passes without it (else it is
            // not a kill, and the next stage may still kill it).
            // The JUnit class names are the suites' (nested ones with either separator).
            func plain(_ suite: String) -> String { suite.replacingOccurrences(of: "/", with: ".") }
            let names = Set(failing.map(plain))
            let named = stage.filter { names.contains(plain($0)) }
            let againReport = scratch.appendingPathComponent("m\(mutant.id)-again.xml")
            let again = self.runTests(
              named.isEmpty ? stage : named, binary: binary, mutant: 0, coverage: coverage,
              scratch: scratch, junit: againReport)
            let failedAgain = Outcome.failingSuites(
              junit: (try? String(contentsOf: againReport, encoding: .utf8)) ?? "")
            try? FileManager.default.removeItem(at: againReport)
            Self.removeProfiles(of: 0, in: scratch)
            seconds += again.seconds
            // A run that failed naming no suite (a crash) tells nothing apart: all failed again.
            let flaky =
              again.status == 0 ? [] : failedAgain.isEmpty ? names : Set(failedAgain.map(plain))
            let killers = failingCases.filter { !flaky.contains(plain($0.suite)) }
            self.log(
              "\(mutant.key): killed by \(failing.sorted().joined(separator: ", ")); unmutated "
                + (flaky.isEmpty
                  ? "they pass: a kill"
                  : "\(flaky.sorted().joined(separator: ", ")) fail too"
                    + (killers.isEmpty ? ": flaky" : ", the others pass: a kill")))
            if let killer = killers.first {
              if !flaky.isEmpty { test = killer.test }
              // A kill by a slow suite (end-to-end, integration: real processes, real time) is
              // run once more with the mutant in: a suite that failed once under load passes
              // this time, and the "kill" was the machine's (an edge-cluster test "killed" a
              // Darwin-only line so, Nov 28). A quick suite's kill is not: it is repeatable.
              if index == 1 {
                let killing = Set(killers.map { plain($0.suite) })
                let confirm = self.runTests(
                  stage.filter { killing.contains(plain($0)) }, binary: binary,
                  mutant: mutant.id, coverage: coverage, scratch: scratch)
                Self.removeProfiles(of: mutant.id, in: scratch)
                seconds += confirm.seconds
                if confirm.status == 0 {
                  self.log(
                    "\(mutant.key): with the mutant in again, \(killing.sorted().joined(separator: ", ")) "
                      + "pass: not a kill (flaky)")
                  flakyBy = flakyBy ?? test ?? killer.suite
                  (outcome, test) = (.survived, nil)
                }
              }
            } else {
              flakyBy = flakyBy ?? test ?? failing.sorted().first
              (outcome, test) = (.survived, nil)
            }
          }
          result = MutantResult(
            mutant: mutant, outcome: outcome, killedBy: test, suites: suites, seconds: seconds)
          if outcome != .survived { break }
        }
        if result.outcome == .survived, let flakyBy {
          result.outcome = .flaky
          result.killedBy = flakyBy
        }
      }
      record(result)
      let count = done.with { done in
        done.append(result)
        return done.count
      }
      self.log(
        "[\(count)/\(toRun.count)] \(mutant.key) — \(result.outcome.rawValue)"
          + (result.killedBy.map { " by \($0)" } ?? "")
          + String(format: " (%.1f s, %d suites)", result.seconds, suites.count))
    }
    results += done.current
    return results
  }

  /// Runs `suites` with mutant `mutant` switched on (0: none), within twice their unmutated time
  /// plus 45 s: past the largest `.hangLimit` (30 s) and its 5 s grace, so that a hang is named
  /// by the suite's own limit before this one ends the run.
  func runTests(
    _ suites: [String], binary: URL, mutant: Int, coverage: SuiteCoverage, scratch: URL,
    junit: URL? = nil
  ) -> Shell.Result {
    let baseline = suites.map { coverage.seconds[$0] ?? 1 }.reduce(0, +)
    defer {
      // What the run left behind: processes in groups of their own, or abandoned by a test.
      if mutant != 0 {
        let left = killProcesses(withEnvironment: Self.variable, equalTo: String(mutant))
        if left > 0 { log("mutant \(mutant): killed \(left) process(es) its tests left running") }
      }
    }
    return Shell.run(
      [binary.path, "--testing-library", "swift-testing"] + Self.filters(suites)
        + (junit.map { ["--xunit-output", $0.path] } ?? []),
      in: mirror.root,
      environment: [
        Self.variable: String(mutant),
        "LLVM_PROFILE_FILE": scratch.appendingPathComponent("m\(mutant)-%p.profraw").path,
      ], limit: 2 * baseline + 45)
  }

  static func removeProfiles(of id: Int, in directory: URL) {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    for name in names where name.hasPrefix("m\(id)-") {
      try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
    }
  }

  static func filters(_ suites: [String]) -> [String] {
    suites.flatMap { ["--filter", "^" + NSRegularExpression.escapedPattern(for: $0) + "/"] }
  }

  /// `path:line:column: error: message` lines of a build, for files of the copy.
  static func errors(in output: String, root: URL) -> [(String, Int, Int, String)] {
    let prefix = root.path + "/"
    return output.split(separator: "\n").compactMap { line in
      guard line.hasPrefix(prefix), let range = line.range(of: ": error: ") else { return nil }
      let place = line[line.index(line.startIndex, offsetBy: prefix.count)..<range.lowerBound]
        .split(separator: ":")
      guard place.count == 3, let number = Int(place[1]), let column = Int(place[2]) else {
        return nil
      }
      return (String(place[0]), number, column, String(line[range.upperBound...]))
    }
  }

  // MARK: Which suites run which lines

  /// Which suites run which lines of every product file. Schemata keep the line numbers, so
  /// one coverage run serves every module until a source or a test changes: it is kept in
  /// `.build/mutate/coverage.json` under the hash of all of them.
  func sharedCoverage(binary: URL, objects: [String], package: (name: String, graph: PackageGraph))
    throws -> SuiteCoverage
  {
    let targets = package.graph.targets.values.sorted { $0.name < $1.name }
    let support = Set(package.graph.testSupport)
    let product = targets.filter { $0.type != "test" && !support.contains($0.name) }
    let tests = targets.filter { $0.type == "test" }.map(\.name)
    var hash = FNV1a()
    hash.add(Self.version)
    for target in targets {
      for file in swiftFiles(in: target.directory) {
        hash.add(file)
        hash.add(text(file))
      }
    }
    let url = work.appendingPathComponent("coverage.json")
    let files = product.flatMap { swiftFiles(in: $0.directory) }
      .map { mirror.root.appendingPathComponent($0).path }
    if options.useCache, let data = try? Data(contentsOf: url),
      var kept = try? JSONDecoder().decode(KeptCoverage.self, from: data), kept.key == hash.hex
    {
      log("coverage: from \(url.path)")
      // A suite left out because it failed unmutated (a timing test under load) is tried again:
      // left out, its tests kill nothing, and every mutant only it covers would survive.
      if let failed = kept.failed, !failed.isEmpty {
        log("coverage: trying again the suites left out: \(failed.joined(separator: ", "))")
        let again = try suiteCoverage(
          binary: binary, objects: objects, tests: tests, files: files, only: failed)
        kept.coverage.merge(again.coverage)
        kept.failed = again.failed
        try JSONEncoder().encode(kept).write(to: url)
      }
      return kept.coverage
    }
    let measured = try suiteCoverage(binary: binary, objects: objects, tests: tests, files: files)
    try JSONEncoder().encode(
      KeptCoverage(key: hash.hex, coverage: measured.coverage, failed: measured.failed)
    ).write(to: url)
    return measured.coverage
  }

  struct KeptCoverage: Codable {
    var key: String
    var coverage: SuiteCoverage
    /// The suites that failed unmutated, left out; the next run tries them again.
    var failed: [String]?
  }

  struct SuiteCoverage: Codable {
    var lines: [String: [Int: Set<String>]] = [:]
    var files: [String: Set<String>] = [:]
    var seconds: [String: Double] = [:]

    /// The suites that ran the line; where the line has no code of its own (a declaration's
    /// initial value), those that ran any line of the file; where no suite ran any line of the
    /// file (a file of `static let` constants: their initializers show in no coverage report),
    /// the suites of `ownTests`, the module's own test target.
    func suites(for file: String, line: Int, ownTests: String) -> [String] {
      if let exact = lines[file]?[line] { return exact.sorted() }
      if let any = files[file], !any.isEmpty { return any.sorted() }
      return seconds.keys.filter { $0.hasPrefix(ownTests + ".") }.sorted()
    }

    mutating func merge(_ other: SuiteCoverage) {
      seconds.merge(other.seconds) { $1 }
      for (file, suites) in other.files { files[file, default: []].formUnion(suites) }
      for (file, byLine) in other.lines {
        for (line, suites) in byLine {
          lines[file, default: [:]][line, default: []].formUnion(suites)
        }
      }
    }
  }

  /// Runs each suite (of `tests`, or `only` these) alone, unmutated, with coverage; a suite
  /// that fails is tried once more, alone, after the others, and left out if it fails again.
  func suiteCoverage(
    binary: URL, objects: [String], tests: [String], files: [String], only: [String]? = nil
  ) throws -> (coverage: SuiteCoverage, failed: [String]) {
    var suites = only ?? []
    if only == nil { suites = listSuites(binary: binary, tests: tests) }
    log("coverage: \(suites.count) suites, each run alone once, unmutated")
    let directory = work.appendingPathComponent("coverage")
    try? FileManager.default.removeItem(at: directory)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let result = Locked(SuiteCoverage())
    let failed = Locked<[String]>([])
    let tools = URL(fileURLWithPath: Self.toolchainBin())
    let indexed = Array(suites.enumerated())
    inParallel(indexed, jobs: options.jobs) { index, suite in
      if !self.cover(
        suite, index: index, binary: binary, objects: objects, files: files, tools: tools,
        directory: directory, into: result)
      {
        failed.with { $0.append(suite) }
      }
    }
    var stillFailing: [String] = []
    for (offset, suite) in failed.current.sorted().enumerated() {
      log("coverage: \(suite) failed unmutated: tried once more, alone")
      if !cover(
        suite, index: suites.count + offset, binary: binary, objects: objects, files: files,
        tools: tools, directory: directory, into: result)
      {
        stillFailing.append(suite)
      }
    }
    if !stillFailing.isEmpty {
      log(
        "coverage: suites that fail unmutated, left out (the next run tries them again): "
          + stillFailing.joined(separator: ", "))
    }
    return (result.current, stillFailing)
  }

  /// The innermost suites of `tests` in the test binary.
  func listSuites(binary: URL, tests: [String]) -> [String] {
    let listed = Shell.run(
      [binary.path, "--testing-library", "swift-testing", "--list-tests"], in: mirror.root)
    var suites: [String] = []
    for line in listed.output.split(separator: "\n") {
      // A test's own suite, the innermost (`Target.Outer/Inner/test()` → `Target.Outer/Inner`):
      // an outer suite of end-to-end tests would run minutes for every mutant it covers.
      guard let slash = line.lastIndex(of: "/") else { continue }
      let suite = String(line[..<slash])
      guard let target = suite.split(separator: ".").first, tests.contains(String(target)),
        !suites.contains(suite)
      else { continue }
      suites.append(suite)
    }
    return suites
  }

  /// Runs `suite` alone, unmutated, and adds the lines it ran to `result`; false when it fails.
  func cover(
    _ suite: String, index: Int, binary: URL, objects: [String], files: [String], tools: URL,
    directory: URL, into result: Locked<SuiteCoverage>
  ) -> Bool {
    let run = Shell.run(
      [binary.path, "--testing-library", "swift-testing"] + Self.filters([suite]),
      in: mirror.root,
      environment: [
        "LLVM_PROFILE_FILE": directory.appendingPathComponent("s\(index)-%p.profraw").path,
        // A folder of this coverage run's own (the self-test's suite that fails once keeps
        // its mark there).
        "MUTATE_COVERAGE_DIRECTORY": directory.path,
      ],
      limit: 900)
    let profiles = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
      .filter { $0.hasPrefix("s\(index)-") }.map { directory.appendingPathComponent($0).path }
    if run.status != 0 {
      for path in profiles { try? FileManager.default.removeItem(atPath: path) }
      log("coverage: \(suite) fails unmutated\n\(run.output.suffix(1500))")
      return false
    }
    let merged = directory.appendingPathComponent("s\(index).profdata").path
    let merge = Shell.run(
      [tools.appendingPathComponent("llvm-profdata").path, "merge", "-sparse"] + profiles + [
        "-o", merged,
      ], in: mirror.root)
    guard merge.status == 0 else {
      log("coverage: \(suite): llvm-profdata failed: \(merge.output.suffix(500))")
      return true
    }
    let export = Shell.run(
      [
        tools.appendingPathComponent("llvm-cov").path, "export", "-format=lcov",
        "-instr-profile", merged, binary.path,
      ] + objects.flatMap { ["-object", $0] } + files, in: mirror.root)
    let lcov = LineCoverage(lcov: export.output)
    for path in profiles + [merged] { try? FileManager.default.removeItem(atPath: path) }
    result.with { coverage in
      coverage.seconds[suite] = run.seconds
      for (file, ran) in lcov.ran {
        if !ran.isEmpty { coverage.files[file, default: []].insert(suite) }
        for line in ran { coverage.lines[file, default: [:]][line, default: []].insert(suite) }
      }
    }
    log(String(format: "coverage: %@ (%.1f s)", suite, run.seconds))
    return true
  }

  static func toolchainBin() -> String {
    // The toolchain's own llvm-cov and llvm-profdata: Debian's read another profile format.
    let swift =
      (try? Shell.check(["which", "swift"], in: URL(fileURLWithPath: "/")))?
      .trimmingCharacters(in: .whitespacesAndNewlines) ?? "/usr/bin/swift"
    let resolved = URL(fileURLWithPath: swift).resolvingSymlinksInPath()
    return resolved.deletingLastPathComponent().path
  }
}

/// Results kept per file, under the hash of the file's text (and the runner's version); each
/// result carries the hash of the tests it was measured under. A file's entry grows a mutant at
/// a time while it runs, so a stopped run keeps what it did; a changed text starts it over.
struct Cache {
  struct Entry: Codable {
    /// `sourceKey` of the file's text; nil in an entry of the first format, which kept one hash
    /// of the text and the tests (`key`): its text is unknown, so its results are reported by
    /// `--last-results` and never used by a run.
    var source: String?
    var key: String?
    var results: [MutantResult]
  }

  let url: URL
  var entries: [String: Entry]

  init(url: URL) {
    self.url = url
    entries =
      (try? JSONDecoder().decode([String: Entry].self, from: Data(contentsOf: url))) ?? [:]
  }

  init(url: URL, entries: [String: Entry]) {
    self.url = url
    self.entries = entries
  }

  static func sourceKey(_ text: String) -> String {
    var hash = FNV1a()
    hash.add(Runner.version)
    hash.add(text)
    return hash.hex
  }

  /// The results kept for `file`, if kept for the text hashing to `source` (any, for nil).
  func results(file: String, source: String?) -> [MutantResult]? {
    guard let entry = entries[file], source == nil || entry.source == source else { return nil }
    return entry.results.sorted { $0.mutant.id < $1.mutant.id }
  }

  /// Of `mutants` (of `file`, whose text hashes to `source`), those whose kept result a run under
  /// the tests hashing to `tests` may use (`carryOver`), with that result; `carried`: how many
  /// of them were measured under other tests; `rerun`: how many kept results it may not use.
  func usable(
    file: String, mutants: [Mutant], source: String, tests: String, carryOver: CarryOver
  ) -> (results: [MutantResult], carried: Int, rerun: Int) {
    let matched = Self.match(mutants, results(file: file, source: source) ?? [])
    let kept = matched.filter { carryOver.keeps($0, tests: tests) }
    return (kept, kept.filter { $0.tests != tests }.count, matched.count - kept.count)
  }

  /// Of `mutants`, those that have a result in `kept` (results of the same text, so the same
  /// mutants at the same places), with that result; their ids are this run's.
  static func match(_ mutants: [Mutant], _ kept: [MutantResult]) -> [MutantResult] {
    let byPlace = Dictionary(kept.map { (Self.place($0.mutant), $0) }) { first, _ in first }
    return mutants.compactMap { mutant in
      byPlace[Self.place(mutant)].map { kept in
        var result = kept
        result.mutant = mutant
        return result
      }
    }
  }

  /// Where a mutant is and what it does: the same across runs of the same text, whatever the
  /// runs' numbering.
  static func place(_ mutant: Mutant) -> String {
    "\(mutant.start):\(mutant.end):\(mutant.mutationOperator.rawValue):\(mutant.mutatedText)"
  }

  /// Forgets what `file` had: a run with --no-cache starts it again.
  mutating func start(file: String, source: String) {
    entries[file] = Entry(source: source, results: [])
  }

  /// Adds one result to `file`'s entry (a new entry when the file's text changed), in place of
  /// the one kept for its mutant (measured under other tests, or by a run that stopped).
  mutating func add(_ result: MutantResult, file: String, source: String) {
    var entry =
      entries[file].flatMap { $0.source == source ? $0 : nil } ?? Entry(source: source, results: [])
    // By place, not id: a `--file` run numbers the mutants otherwise than the module run whose
    // results the entry keeps, and an id clash dropped another mutant's result.
    entry.results.removeAll { Self.place($0.mutant) == Self.place(result.mutant) }
    entry.results.append(result)
    entries[file] = entry
  }

  func save() throws {
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try JSONEncoder().encode(entries).write(to: url, options: .atomic)
  }
}
