import Foundation
import MutateKit

/// The self-test's check of what a run takes from the cache (`Cache.usable`, `CarryOver`): under
/// changed tests a kill is carried over and a survivor runs again; a changed text drops every
/// result; a kill by a test since removed, and every result under `--recheck-kills`, run again;
/// an entry of the first format (one combined key) is read and not used. Returns its lines.
func cacheSelfTest() -> (lines: [String], failed: Bool) {
  let text = "func f(_ a: Int) -> Bool { a < 1 || a > 9 }\n"
  let mutants = MutantFinder().mutants(in: text, file: "F.swift")
  guard let killedMutant = mutants.first(where: { $0.change == "< → <=" }),
    let survivorMutant = mutants.first(where: { $0.change == "> → >=" })
  else { return (["self-test: FAIL the cache check's file has no < or > mutant"], true) }
  let source = Cache.sourceKey(text)
  let killed = MutantResult(
    mutant: killedMutant, outcome: .killed, killedBy: "f_isFalseOnOne()", tests: "T1")
  let survived = MutantResult(mutant: survivorMutant, outcome: .survived, tests: "T1")
  let cache = Cache(
    url: URL(fileURLWithPath: "/dev/null"),
    entries: ["F.swift": Cache.Entry(source: source, results: [killed, survived])])
  func usable(
    _ cache: Cache, source: String, tests: String, recheck: Bool = false,
    testSources: [String] = ["@Test func f_isFalseOnOne() {}"]
  ) -> Set<String> {
    let carryOver = CarryOver(
      recheck: recheck, equivalent: [], testNames: TestNames(sources: testSources))
    let found = cache.usable(
      file: "F.swift", mutants: mutants, source: source, tests: tests, carryOver: carryOver)
    return Set(found.results.map(\.mutant.change))
  }
  let both: Set<String> = ["< → <=", "> → >="]
  var checks: [(String, Set<String>, Set<String>)] = [
    ("same text, same tests: both results used", usable(cache, source: source, tests: "T1"), both),
    (
      "same text, changed tests: the kill carried over, the survivor run again",
      usable(cache, source: source, tests: "T2"), ["< → <="]
    ),
    (
      "changed text: every result dropped",
      usable(cache, source: Cache.sourceKey(text + " "), tests: "T1"),
      []
    ),
    (
      "changed tests, the killing test removed: the kill run again",
      usable(cache, source: source, tests: "T2", testSources: ["@Test func other() {}"]), []
    ),
    (
      "--recheck-kills: nothing measured under other tests used",
      usable(cache, source: source, tests: "T2", recheck: true), []
    ),
  ]
  // The first format: one hash of the text and the tests, results without their tests' hash.
  let old = #"{"F.swift":{"key":"1ff7b31878e86895","results":[]}}"#
  if let entries = try? JSONDecoder().decode([String: Cache.Entry].self, from: Data(old.utf8)) {
    var oldCache = Cache(url: URL(fileURLWithPath: "/dev/null"), entries: entries)
    oldCache.entries["F.swift"]?.results = [killed, survived].map { result in
      var result = result
      result.tests = nil
      return result
    }
    checks.append(
      (
        "an entry of the first format: read, not used",
        usable(oldCache, source: source, tests: "T1"), []
      ))
  } else {
    checks.append(("an entry of the first format: read, not used", ["unreadable"], []))
  }
  var lines: [String] = []
  var failed = false
  for (what, got, wanted) in checks {
    lines.append(
      "self-test: \(got == wanted ? "ok  " : "FAIL") cache: \(what): "
        + (got.isEmpty ? "none" : got.sorted().joined(separator: ", ")))
    if got != wanted { failed = true }
  }
  return (lines, failed)
}
