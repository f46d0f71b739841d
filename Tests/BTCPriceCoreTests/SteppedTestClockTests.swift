import BTCPriceCore
import BTCPriceRuntime
import BTCPriceTestSupport
import Testing

/// The test clock that every timed test drives: it must behave as a real clock wherever the code
/// under test can tell.
@Suite("The stepped test clock", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct SteppedTestClockTests {
  let clock = SteppedTestClock()

  @Test func aSleepUntilAnInstantTheClockHasReached_returnsAtOnce() async {
    await clock.advance(to: .seconds(5))
    let returned = Locked(false)
    let sleeper = Task {
      try? await clock.sleep(until: clock.origin.advanced(by: .seconds(5)))
      returned.withValue { $0 = true }
    }

    await waitUntil({ returned.value }, "a sleep until now waited for another advance")
    #expect(clock.sleepsStarted == 1)
    sleeper.cancel()
  }

  @Test func aSleepUntilALaterInstant_waitsForTheAdvanceThatReachesIt() async {
    let returned = Locked(false)
    let sleeper = Task {
      try? await clock.sleep(until: clock.origin.advanced(by: .seconds(5)))
      returned.withValue { $0 = true }
    }

    await clock.advance(to: .seconds(4), afterSleeps: 1)
    #expect(!returned.value)
    await clock.advance(to: .seconds(5))
    await waitUntil({ returned.value })
    sleeper.cancel()
  }
}
