import Foundation
import Testing
import Thermostat

// Stands for a timing test that fails on a loaded machine: it passes when the runner first runs
// it alone (coverage, no mutant switch set) and fails whenever the runner runs it again, with a
// mutant in or with none (the switch set to 0). The runner must call its kill flaky, although
// it is not an end-to-end test (Core's webhook suite was such a test).
@Suite struct VentilationTests {
  @Test func ventilating_offTheTarget() {
    #expect(Thermostat(target: 20).ventilating(at: 25))
    #expect(ProcessInfo.processInfo.environment["MUTATE_ACTIVE_MUTANT"] == nil)
  }
}
