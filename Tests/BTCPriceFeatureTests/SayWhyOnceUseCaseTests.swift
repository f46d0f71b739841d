import BTCPriceCore
import BTCPriceFeature
import Foundation
import Testing

@Suite("Say why no price comes, once")
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
