import Foundation
import Testing
import Thermostat

// Stands for an end-to-end test that fails once on a loaded machine: slow (the runner's second
// stage: over 3 s), it fails the first time it runs with a mutant in and passes every other
// time, with the mutant or without. Its "kill" passes the check with no mutant in, so only
// running it once more with the mutant in shows that the kill does not happen again: the runner
// must call it flaky (Core's Darwin-only lines were "killed" by an edge-cluster test this way).
@Suite struct SlowIdleTests {
  @Test func idle_atTheTarget() async throws {
    try await Task.sleep(for: .milliseconds(3_200))
    #expect(Thermostat(target: 20).idle(at: 20) || Self.failedOnceAlready())
  }

  /// False the first time it is asked in a run of the runner (a mark in the runner's scratch
  /// folder, which the self-test empties at its start), true after.
  static func failedOnceAlready() -> Bool {
    guard let profile = ProcessInfo.processInfo.environment["LLVM_PROFILE_FILE"] else {
      return false
    }
    let mark = URL(fileURLWithPath: profile).deletingLastPathComponent()
      .appendingPathComponent("slow-idle.mark")
    if FileManager.default.fileExists(atPath: mark.path) { return true }
    FileManager.default.createFile(atPath: mark.path, contents: nil)
    return false
  }
}
