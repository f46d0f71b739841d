import BTCPriceCore
import BTCPriceFeature
import Metrics
import Prometheus

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `GET /metrics`: what the poller and the stream are doing, as Prometheus text, through
/// swift-metrics with a registry of our own (no global `MetricsSystem.bootstrap`, so tests and
/// several servers in one process do not share counters).
public final class ServerMetrics: Sendable {
  public static let names = [
    "btc_price_ticks_total", "btc_price_failed_ticks_total", "btc_price_source_attempts_total",
    "btc_price_source_failures_total", "btc_price_source_breaker_state", "btc_price_viewers",
    "btc_price_viewers_dropped_total", "btc_price_shown_value_age_seconds",
    "btc_price_alert_webhook_total", "btc_price", "btc_price_change_24h_ratio",
    "btc_price_age_seconds",
  ]

  private let registry = PrometheusCollectorRegistry()
  private let factory: PrometheusMetricsFactory
  private let ticks: Metrics.Counter
  private let failedTicks: Metrics.Counter
  private let viewers: Metrics.Gauge
  private let dropped: Metrics.Counter
  private let age: Metrics.Gauge
  /// The shown price itself, its 24-hour change as a ratio, and its age (the same as
  /// `btc_price_shown_value_age_seconds`, kept for the dashboards that read that name).
  private let price: Metrics.Gauge
  private let change24h: Metrics.Gauge
  private let priceAge: Metrics.Gauge
  private typealias Series = (
    attempts: Metrics.Counter, failures: Metrics.Counter, breaker: Metrics.Gauge
  )
  private let perSource: [String: Series]
  private let now: @Sendable () -> Date
  /// `--alert-webhook` deliveries by outcome: `delivered`, `failed` (an attempt), `dropped`.
  private let alertWebhook: [String: Metrics.Counter]

  /// - Parameters:
  ///   - sources: the chain, so every source has its series from the start (a source that was
  ///     never asked shows 0, not nothing).
  ///   - currency: the run's, the label of `btc_price`.
  public init(
    sources: [PriceSource], currency: Currency = .usd,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    factory = PrometheusMetricsFactory(registry: registry)
    ticks = Metrics.Counter(label: "btc_price_ticks_total", factory: factory)
    failedTicks = Metrics.Counter(label: "btc_price_failed_ticks_total", factory: factory)
    viewers = Metrics.Gauge(label: "btc_price_viewers", factory: factory)
    dropped = Metrics.Counter(label: "btc_price_viewers_dropped_total", factory: factory)
    age = Metrics.Gauge(label: "btc_price_shown_value_age_seconds", factory: factory)
    let inCurrency = [("currency", currency.code)]
    price = Metrics.Gauge(label: "btc_price", dimensions: inCurrency, factory: factory)
    change24h = Metrics.Gauge(
      label: "btc_price_change_24h_ratio", dimensions: inCurrency, factory: factory)
    priceAge = Metrics.Gauge(label: "btc_price_age_seconds", factory: factory)
    var perSource: [String: Series] = [:]
    for source in sources {
      let labels = [("source", source.id)]
      perSource[source.id] = (
        Metrics.Counter(
          label: "btc_price_source_attempts_total", dimensions: labels, factory: factory),
        Metrics.Counter(
          label: "btc_price_source_failures_total", dimensions: labels, factory: factory),
        Metrics.Gauge(label: "btc_price_source_breaker_state", dimensions: labels, factory: factory)
      )
    }
    self.perSource = perSource
    self.now = now
    var alertWebhook: [String: Metrics.Counter] = [:]
    for outcome in ["delivered", "failed", "dropped"] {
      alertWebhook[outcome] = Metrics.Counter(
        label: "btc_price_alert_webhook_total", dimensions: [("outcome", outcome)],
        factory: factory)
    }
    self.alertWebhook = alertWebhook
  }

  /// The breaker state as a number: 0 closed, 1 half-open (one probe allowed), 2 open.
  /// Counts one `--alert-webhook` outcome: `delivered`, `failed` or `dropped`.
  @Sendable public func recordAlertWebhook(_ outcome: String) {
    alertWebhook[outcome]?.increment()
  }

  public static func breakerValue(_ phase: CircuitPhase) -> Int {
    switch phase {
    case .closed: 0
    case .halfOpen: 1
    case .open: 2
    }
  }

  /// The chain's event handler.
  @Sendable public func record(_ event: PriceSourceEvent) {
    switch event {
    case .delivered(let source, _, _):
      perSource[source.id]?.attempts.increment()
    case .failed(let source, _, _):
      perSource[source.id]?.attempts.increment()
      perSource[source.id]?.failures.increment()
    case .skipped:
      break
    case .circuitChanged(let source, let transition):
      perSource[source.id]?.breaker.record(Self.breakerValue(transition.to))
    }
  }

  public func recordTick(_ state: PriceViewState) {
    ticks.increment()
    if state.isStale { failedTicks.increment() }
  }

  /// A stream viewer fell behind and was dropped: counted where it happens.
  @Sendable public func viewerDropped() {
    dropped.increment()
  }

  /// The Prometheus text exposition, with the gauges that are read rather than counted (viewers,
  /// the shown price, its change and its age) taken now. Without a price they are `NaN`, never
  /// a zero a dashboard would draw; a stale price is still the price shown, as on the page.
  public func render(latest: PriceEvent, viewers connected: Int) -> String {
    viewers.record(connected)
    let state = latest.state
    let shownAge = state.quote.map { max(0, now().timeIntervalSince($0.timestamp)) } ?? .nan
    age.record(shownAge)
    priceAge.record(shownAge)
    price.record(state.record.price.flatMap(Double.init) ?? .nan)
    change24h.record(Self.ratio(of: state.record) ?? .nan)
    return registry.emitToString()
  }

  /// The 24-hour change as a share of the price a day before (`0.0133` for +1.33 %), from the
  /// record's exact decimals.
  static func ratio(of record: PriceRecord) -> Double? {
    guard let text = record.price, let change = record.change24h,
      let price = Decimal(string: text), let moved = Decimal(string: change.absolute)
    else { return nil }
    let before = price - moved
    guard before > 0 else { return nil }
    return Double((moved / before).plainText)
  }
}
