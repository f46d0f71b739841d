import BTCPriceCore
import BTCPriceFeature
import BTCPriceTestSupport
import Foundation
import Testing

/// Two streams that disagree are said once on stderr (and in `--json` on every tick it happens);
/// the rejected price is named there and nowhere else.
@Suite("Say once that the streams disagree", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct SayOnceThatTheStreamsDisagreeUseCaseTests {
  let presenter = PricePresenter(
    timestamps: TimestampFormatter(precision: .seconds, timeZone: TimeZone(identifier: "UTC")!))

  // MARK: stderr, once per episode

  @Test func aRejection_isSaidOnceForTheWholeEpisode_andTheEndOnce() {
    var sut = CrossCheckNotice()

    let first = sut.record(settled)
    let during = (0..<10).map { _ in sut.record(settled) }
    let streamGone = sut.record(.fresh(shown))
    let unsettledToo = sut.record(unsettled)
    let end = sut.record(agreed)
    let afterEnd = sut.record(agreed)

    #expect(
      first
        == "the binance stream's price $6,890.12 is not shown: coinbase ($68,880.55) and kraken "
        + "agree on another; showing coinbase's while they disagree (--verbose for each tick)")
    #expect(during.allSatisfy { $0 == nil })
    #expect(streamGone == nil, "a tick without a cross-check neither ends nor starts an episode")
    #expect(unsettledToo == nil, "still the same disagreement")
    #expect(end == "the coinbase and binance streams agree again")
    #expect(afterEnd == nil)
  }

  @Test func aDisagreementAfterAnAgreement_isANewEpisode() {
    var sut = CrossCheckNotice()
    _ = sut.record(settled)
    _ = sut.record(agreed)

    #expect(sut.record(settled) != nil)
  }

  @Test func agreementAlone_saysNothing() {
    var sut = CrossCheckNotice()

    #expect(sut.record(agreed) == nil)
    #expect(sut.record(.fresh(shown)) == nil)
  }

  @Test func anUnsettledDisagreement_isSaidOnceForTheWholeEpisode_andTheEndOnce() {
    var sut = CrossCheckNotice()
    _ = sut.record(unsettled)

    #expect(sut.record(unsettled) == nil, "the same disagreement, said again")
    #expect(sut.record(settled) == nil, "settled since, but the same episode")
    #expect(sut.record(agreed) == "the coinbase and binance streams agree again")
  }

  @Test func anUnsettledDisagreement_saysInWordsThatNeitherIsShown() {
    var sut = CrossCheckNotice()

    #expect(
      sut.record(unsettled)
        == "the binance ($6,890.12) and coinbase ($68,880.55) streams disagree and no third "
        + "source could say which is right: showing neither, the ticks fail while they disagree")
  }

  @Test func theOutageReason_ofAnUnsettledDisagreement_isTheDisagreementInWords() {
    guard case .stale(_, let failure) = unsettled else { return }

    #expect(
      OutageNotice.commonReason(failure)
        == "binance (6890.12) and coinbase (68880.55) disagree and no third source settled it, "
        + "so neither is shown")
  }

  // MARK: --verbose, every tick it happens

  @Test func verbose_namesTheRejectedPriceAndWhoOutvotedIt() {
    #expect(
      CrossCheckNotice.verboseText(outcome)
        == "cross-check: rejected binance (6890.12); coinbase (68880.55) and kraken agree")
  }

  @Test func verbose_saysAnUnsettledTickFails() {
    #expect(
      CrossCheckNotice.verboseText(.unsettled(rejected, shown))
        == "cross-check: binance (6890.12) and coinbase (68880.55) disagree and no third source "
        + "settled it; the tick fails")
  }

  // MARK: --json

  @Test func json_aTickThatRejectedAPrice_carriesCrossCheck_afterTheUsualMembers() {
    #expect(
      JSONLineRenderer.render(presenter.present(settled))
        == #"{"timestamp":"2026-11-22T14:03:05Z","price":"68880.55","currency":"USD","source":"coinbase","stale":false,"satsPerUnit":"1452","crossCheck":{"rejected":{"source":"binance","price":"6890.12"},"referee":"kraken"}}"#
    )
  }

  @Test func json_aFailedTickNothingSettled_carriesBothPrices() throws {
    let line = JSONLineRenderer.render(presenter.present(unsettled))
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    let crossCheck = try #require(object["crossCheck"] as? [String: Any])
    let prices = try #require(crossCheck["unsettled"] as? [[String: String]])

    #expect(
      prices == [
        ["source": "binance", "price": "6890.12"], ["source": "coinbase", "price": "68880.55"],
      ])
    #expect(object["stale"] as? Bool == true)
    #expect(
      object["error"] as? String == "binance (6890.12) and coinbase (68880.55) disagree "
        + "and no third source settled it, so neither is shown")
  }

  @Test func json_aTickWhoseStreamsAgree_hasNoCrossCheck() {
    #expect(!JSONLineRenderer.render(presenter.present(agreed)).contains("crossCheck"))
  }

  @Test func noViewShowsTheRejectedPrice_onlyTheCrossCheckMemberNamesIt() {
    let state = presenter.present(settled)

    #expect(state.priceText == "$68,880.55")
    #expect(!state.accessibilityLabel.contains("6,890"))
    let json = JSONLineRenderer.render(state)
    #expect(json.components(separatedBy: "6890.12").count == 2, "named once, in crossCheck")
  }

  // MARK: Helpers

  private var shown: PriceQuote { quote("68880.55", source: .coinbase) }
  private var rejected: PriceQuote { quote("6890.12", source: .binance) }
  private var outcome: CrossCheckOutcome {
    .settled(shown, rejected: rejected, referee: .kraken)
  }
  private var settled: PriceUpdate { .fresh(shown, crossCheck: outcome) }
  private var agreed: PriceUpdate { .fresh(shown, crossCheck: .agreed(shown, with: .binance)) }
  private var unsettled: PriceUpdate {
    let failure = PriceFetchFailure(
      failures: [
        .init(source: .binance, error: .invalidData("far from coinbase")),
        .init(source: .coinbase, error: .invalidData("far from binance")),
      ],
      crossCheck: .unsettled(rejected, shown))
    return .stale(lastKnown: nil, failure: failure)
  }

}
