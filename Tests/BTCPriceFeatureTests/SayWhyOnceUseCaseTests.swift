import BTCPriceCore
import BTCPriceFeature
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Say why no price comes, once", .hangLimit(.seconds(30)))
struct SayWhyOnceUseCaseTests {
  let binance = PriceSource(id: "binance", displayName: "Binance")
  let kraken = PriceSource(id: "kraken", displayName: "Kraken")

  @Test func fewerFailedTicksThanTheThreshold_sayNothing() {
    var sut = OutageNotice(threshold: 3)
    #expect(sut.record(failed(.unreachable("host not found"))) == nil)
    #expect(sut.record(failed(.unreachable("host not found"))) == nil)
    #expect(sut.reason == nil)
  }

  @Test func thresholdReached_warnsOnceWithTheCommonReason() {
    var sut = OutageNotice(threshold: 2)
    _ = sut.record(failed(.unreachable("host not found")))
    let line = sut.record(failed(.unreachable("host not found")))
    #expect(
      line
        == "no source has given a price for 2 ticks: no source's host name could be found — is"
        + " this machine offline? Behind a company firewall, set --proxy (or $https_proxy)")
    #expect(sut.record(failed(.unreachable("host not found"))) == nil)
    #expect(sut.reason?.hasPrefix("no source's host name") == true)
  }

  @Test func recovery_saysSoOnce_andAFreshOutageWarnsAgain() {
    var sut = OutageNotice(threshold: 1)
    #expect(sut.record(failed(.timedOut(after: .seconds(1)))) != nil)
    #expect(sut.record(fresh()) == "prices are back (from kraken)")
    #expect(sut.record(fresh()) == nil)
    #expect(sut.reason == nil)
    #expect(sut.record(failed(.timedOut(after: .seconds(1))))?.contains("in time") == true)
  }

  /// A price that comes back starts the count again: the next outage is said after the whole
  /// threshold of failed ticks, and counts its own ticks, not the last outage's too.
  @Test func afterRecovery_theNextOutageCountsFromNothing() {
    var sut = OutageNotice(threshold: 3)
    for _ in 1...4 { _ = sut.record(failed(.timedOut(after: .seconds(1)))) }
    #expect(sut.record(fresh()) == "prices are back (from kraken)")

    #expect(sut.record(failed(.timedOut(after: .seconds(1)))) == nil)
    #expect(sut.record(failed(.timedOut(after: .seconds(1)))) == nil)
    #expect(
      sut.record(failed(.timedOut(after: .seconds(1))))?.hasPrefix(
        "no source has given a price for 3 ticks:") == true)
  }

  @Test func freshBeforeAnyWarning_saysNothing() {
    var sut = OutageNotice(threshold: 3)
    _ = sut.record(failed(.unreachable("host not found")))
    #expect(sut.record(fresh()) == nil)
  }

  @Test func tlsFailures_areNamedWithTheirReason() {
    let reason = OutageNotice.commonReason(
      PriceFetchFailure(failures: [
        .init(source: binance, error: .unreachable("TLS failure: the certificate expired")),
        .init(source: kraken, error: .unreachable("TLS failure: the certificate expired")),
      ]))
    #expect(reason == "every source failed TLS: the certificate expired")
  }

  @Test func proxyRefusals_areToldInTheProxysWords() {
    let words = "the proxy http://p:1 wants a user name and password (407)"
    let reason = OutageNotice.commonReason(
      PriceFetchFailure(failures: [.init(source: binance, error: .unreachable(words))]))
    #expect(reason == words)
  }

  @Test func mixedFailures_listEachSource() {
    let reason = OutageNotice.commonReason(
      PriceFetchFailure(failures: [
        .init(source: binance, error: .httpStatus(451, message: nil)),
        .init(source: kraken, error: .unreachable("host not found")),
      ]))
    #expect(
      reason == "every source failed (binance: HTTP 451; kraken: unreachable: host not found)")
  }

  /// A `--once` run warns after its one tick, without "for 1 ticks".
  @Test func oneFailedTick_isSaidWithoutACount() {
    var sut = OutageNotice(threshold: 1)
    #expect(
      sut.record(failed(.unreachable("connection refused")))
        == "no source has given a price: every source refused the connection — a firewall may"
        + " block it; behind a company firewall, set --proxy (or $https_proxy)")
  }

  /// Every timeout counts, the chain's own and the transport's ("unreachable: transport timed
  /// out"), and the words say what to do.
  @Test func timeouts_ofEitherKind_areNamedWithAdvice() {
    let reason = OutageNotice.commonReason(
      PriceFetchFailure(failures: [
        .init(source: binance, error: .timedOut(after: .milliseconds(800))),
        .init(source: kraken, error: .unreachable("transport timed out")),
      ]))
    #expect(
      reason
        == "no source answered in time — a firewall may be dropping the connections; behind a"
        + " company firewall, set --proxy (or $https_proxy)")
  }

  /// A proxy that cannot be reached is the reason, even when its own name was not found: the
  /// advice to set a proxy would be wrong.
  @Test func unreachableProxy_isToldBeforeAnyHostNotFound() {
    let words = "cannot reach the proxy http://p:1: host not found"
    let reason = OutageNotice.commonReason(
      PriceFetchFailure(failures: [
        .init(source: binance, error: .unreachable(words)),
        .init(source: kraken, error: .unreachable(words)),
      ]))
    #expect(reason == words)
  }

  @Test func onlySkippedSources_areSaidToBeResting() {
    let reason = OutageNotice.commonReason(
      PriceFetchFailure(failures: [
        .init(source: binance, error: .skipped("circuit open")),
        .init(source: kraken, error: .skipped("circuit open")),
      ]))
    #expect(reason == "every source is resting after earlier failures (see --verbose)")
  }

  @Test func skippedSources_doNotHideTheCommonReasonOfThoseAsked() {
    let reason = OutageNotice.commonReason(
      PriceFetchFailure(failures: [
        .init(source: binance, error: .skipped("circuit open")),
        .init(source: kraken, error: .unreachable("host not found")),
      ]))
    #expect(reason.hasPrefix("no source's host name could be found"))
  }

  @Test func streamsThatDisagree_areTheReason() {
    let a = PriceQuote(
      value: Decimal(string: "6890.12")!, timestamp: Date(timeIntervalSince1970: 0), source: binance
    )
    let b = PriceQuote(
      value: Decimal(string: "68901.23")!, timestamp: Date(timeIntervalSince1970: 0), source: kraken
    )
    let reason = OutageNotice.commonReason(
      PriceFetchFailure(
        failures: [.init(source: binance, error: .unreachable("host not found"))],
        crossCheck: .unsettled(a, b)))
    #expect(
      reason
        == "binance (6890.12) and kraken (68901.23) disagree and no third source settled it,"
        + " so neither is shown")
  }

  private func failed(_ error: PriceSourceError) -> PriceUpdate {
    .stale(
      lastKnown: nil,
      failure: PriceFetchFailure(failures: [
        .init(source: binance, error: error), .init(source: kraken, error: error),
      ]))
  }

  private func fresh() -> PriceUpdate {
    .fresh(PriceQuote(value: 1, timestamp: Date(timeIntervalSince1970: 0), source: kraken))
  }
}
