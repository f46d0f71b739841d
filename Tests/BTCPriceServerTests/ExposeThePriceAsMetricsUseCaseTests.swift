import BTCPriceCore
import BTCPriceFeature
import BTCPriceServer
import BTCPriceTestSupport
import Foundation
import Testing

/// What a dashboard asks `/metrics` for besides the server's own counters: the price shown, its
/// 24-hour change as a ratio and its age, named as Prometheus asks (units as suffixes, base
/// units), and not a number (never a zero) while nothing is known.
@Suite("Expose the price as metrics", .hangLimit(.seconds(30)))
struct ExposeThePriceAsMetricsUseCaseTests {
  let presenter = PricePresenter(timestamps: .utc(precision: .seconds), currency: .eur)
  let day = CandleSeries.day(endingAt: 1_795_356_000, currency: .eur) { _ in "68000.00" }

  @Test func thePrice_itsChange_andItsAge_areGauges() {
    let metrics = ServerMetrics(
      sources: [.binance], currency: .eur, now: { quoteTime.addingTimeInterval(3) })
    let state = presenter.present(.fresh(quote("68901.23", currency: "EUR")), dayHistory: day)

    let lines = render(metrics, state)

    #expect(lines.contains(#"btc_price{currency="EUR"} 68901.23"#), "\(lines)")
    // +901.23 on 68,000: 0.013253382352941…
    #expect(
      lines.contains { $0.hasPrefix(#"btc_price_change_24h_ratio{currency="EUR"} 0.01325338"#) },
      "\(lines)")
    #expect(lines.contains("btc_price_age_seconds 3.0"), "\(lines)")
    #expect(lines.contains("btc_price_shown_value_age_seconds 3.0"), "kept for its dashboards")
  }

  /// A stale price is still the price shown (as on the page), and ages; its change is the shown
  /// price's.
  @Test func aStalePrice_isStillShown_andAges() {
    let metrics = ServerMetrics(
      sources: [.binance], currency: .eur, now: { quoteTime.addingTimeInterval(90) })
    let state = presenter.present(
      .stale(
        lastKnown: quote("67320.00", currency: "EUR"), failure: PriceFetchFailure(failures: [])),
      dayHistory: day)

    let lines = render(metrics, state)

    #expect(lines.contains(#"btc_price{currency="EUR"} 67320.0"#), "\(lines)")
    #expect(lines.contains(#"btc_price_change_24h_ratio{currency="EUR"} -0.01"#), "\(lines)")
    #expect(lines.contains("btc_price_age_seconds 90.0"), "\(lines)")
  }

  @Test func withNothingKnown_orNoHistory_theGaugesAreNotANumber() {
    let metrics = ServerMetrics(sources: [.binance], currency: .eur)
    let unknown = presenter.present(
      .stale(lastKnown: nil, failure: PriceFetchFailure(failures: [])))
    let noHistory = presenter.present(.fresh(quote("68901.23", currency: "EUR")))

    let nothing = render(metrics, unknown)
    #expect(nothing.contains(#"btc_price{currency="EUR"} nan"#), "\(nothing)")
    #expect(nothing.contains(#"btc_price_change_24h_ratio{currency="EUR"} nan"#))
    #expect(nothing.contains("btc_price_age_seconds nan"))
    #expect(render(metrics, noHistory).contains(#"btc_price_change_24h_ratio{currency="EUR"} nan"#))
  }

  @Test func theNewNames_areListed() {
    for name in ["btc_price", "btc_price_change_24h_ratio", "btc_price_age_seconds"] {
      #expect(ServerMetrics.names.contains(name))
    }
  }

  private func render(_ metrics: ServerMetrics, _ state: PriceViewState) -> [String] {
    let event = PriceBroadcaster(initial: state).latest
    return metrics.render(latest: event, viewers: 0).split(separator: "\n").map(String.init)
  }
}
