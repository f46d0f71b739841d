import BTCPriceCore
import BTCPriceFeature
import BTCPriceServer
import BTCPriceTestSupport
import Foundation
import Testing

/// `/api/price` and the stream's data are the `--json` object, so a tick whose cross-check
/// rejected a price carries the same `crossCheck` member there.
@Suite("Serve the cross-check's verdict", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct ServeTheCrossCheckUseCaseTests {
  @Test func apiPriceAndTheStreamsData_carryTheRejectedPriceAndItsReferee() throws {
    let presenter = PricePresenter(
      timestamps: TimestampFormatter(precision: .seconds, timeZone: TimeZone(identifier: "UTC")!))
    let shown = PriceQuote(
      value: Decimal(string: "68880.55")!, timestamp: Date(timeIntervalSince1970: 1_795_356_185),
      source: .coinbase)
    let rejected = PriceQuote(
      value: Decimal(string: "6890.12")!, timestamp: shown.timestamp, source: .binance)
    let sut = PriceBroadcaster(initial: presenter.presentRestored(nil))

    let event = sut.publish(
      presenter.present(
        .fresh(shown, crossCheck: .settled(shown, rejected: rejected, referee: .kraken))))

    let member =
      #""crossCheck":{"rejected":{"source":"binance","price":"6890.12"},"referee":"kraken"}"#
    #expect(event.json.hasSuffix(member + "}"), "\(event.json)")
    let data = try #require(
      try JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any])
    #expect(data["price"] as? String == "68880.55")
    #expect(data["crossCheck"] != nil)
    #expect(data["view"] != nil)
  }
}
