import BTCPriceCore
import BTCPriceTestSupport
import Foundation
import Testing

/// The defaults every composition shares. Each is pinned here, so changing one (800 ms to 900 ms)
/// fails a test that names it instead of slipping through with every other test green.
@Suite("Use the documented defaults", .hangLimit(.seconds(30)))
struct PriceDefaultsTests {
  @Test func theTickIntervalIsOneSecond() {
    #expect(PriceDefaults.interval == .seconds(1))
  }

  @Test func theFirstSourceHas800Milliseconds() {
    #expect(PriceDefaults.primaryTimeout == .milliseconds(800))
  }

  @Test func theCacheIsWrittenAtMostEveryTenSeconds() {
    #expect(PriceDefaults.cacheWriteInterval == .seconds(10))
    #expect(
      PriceCache(store: PriceStoreSpy(), clock: SteppedTestClock()).minimumInterval == .seconds(10))
  }

  @Test func theBreakerOpensAfterThreeFailuresAndKeepsTheExchangesLimits() {
    let policy = PriceDefaults.breakerPolicy

    #expect(policy == CircuitBreakerPolicy.standard)
    #expect(policy.failureThreshold == 3)
    #expect(policy.firstCoolDown == .seconds(5))
    #expect(policy.longestCoolDown == .seconds(300))
    #expect(policy.refusalCoolDown == .seconds(3600))
    #expect(policy.rateLimitCoolDown == .seconds(60))
    #expect(policy.banCoolDown == .seconds(120))
  }

  @Test func streamsComeFirst_andASilentOneIsReadForAtMostOneAndAHalfTicks() {
    #expect(PriceDefaults.stream)
    #expect(PriceDefaults.streamSilenceInTicks == 1.5)
    #expect(PriceDefaults.shortestStreamSilence == .milliseconds(1_500))
  }

  @Test func aPriceThatMovedMoreThanTwoPercentInTenMinutes_mustBeConfirmed() {
    #expect(PriceDefaults.plausibilityWindow == .seconds(600))
    #expect(PricePlausibility().window == .seconds(600))
    #expect(PricePlausibility().check == CrossCheck(tolerance: Decimal(string: "0.02")!))
  }

  @Test(arguments: [
    (Duration.seconds(1), "1"), (.milliseconds(800), "0.8"), (.milliseconds(2_500), "2.5"),
    (.milliseconds(10), "0.01"), (.milliseconds(1_050), "1.05"), (.seconds(86_400), "86400"),
  ])
  func secondsText_writesSecondsAsHelpShowsThem(_ duration: Duration, _ text: String) {
    #expect(duration.secondsText == text)
  }
}
