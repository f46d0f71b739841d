import Foundation
import Testing

// Stands for a suite that fails once on a loaded machine while the runner measures coverage: it
// fails the first time a coverage run runs it and passes after. The runner must try it again and
// use it, not leave it out (its tests would kill nothing). It runs no Thermostat code, so it
// changes no mutant's verdict.
@Suite struct FailsOnceTests {
  @Test func failsTheFirstTimeACoverageRunRunsIt() {
    guard let folder = ProcessInfo.processInfo.environment["MUTATE_COVERAGE_DIRECTORY"] else {
      return
    }
    let mark = URL(fileURLWithPath: folder).appendingPathComponent("fails-once.mark")
    if FileManager.default.fileExists(atPath: mark.path) { return }
    FileManager.default.createFile(atPath: mark.path, contents: nil)
    Issue.record("the first coverage run of this suite fails")
  }
}
