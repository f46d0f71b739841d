import ArgumentParser
import BTCPriceCore
import BTCPriceFeature
import BTCPriceNIO
import BTCPriceNetworking
import BTCPriceServer

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `serve`'s alerts: the rules of its settings, evaluated once per tick, each alert handed to
/// `--alert-webhook` through a bounded queue that never makes the tick wait.
struct ServeAlerts: Sendable {
  /// What the webhook's body is.
  enum BodyFormat: String, CaseIterable, Sendable, ExpressibleByArgument {
    /// One JSON object per alert: rule, direction, price, currency, time, source, text.
    case json
    /// The alert's sentence as plain text, its title in a `Title` header: ntfy's publish.
    case text
  }

  let engine: AlertEngine
  let presenter: PricePresenter
  let queue: AlertWebhookQueue<AlertViewState.Item>?

  /// Nil when the run has no rules. The rules' state is kept under `serve:` in the state file,
  /// apart from the terminal runs'.
  static func make(
    _ resolved: PipelineOptions.Resolved, webhook: URL?, format: BodyFormat,
    client: NIOHTTPClient, clock: any Clock<Duration>, runStarted: Date,
    presenter: PricePresenter, metrics: ServerMetrics, warn: @escaping @Sendable (String) -> Void
  ) -> ServeAlerts? {
    guard !resolved.alerts.isEmpty else { return nil }
    let engine = AlertEngine(
      rules: resolved.alerts, currency: resolved.configuration.currency.code, clock: clock,
      runStarted: runStarted, store: resolved.alertStore, scope: "serve:", warn: warn)
    engine.restore()
    guard let url = webhook else {
      return ServeAlerts(engine: engine, presenter: presenter, queue: nil)
    }
    let queue = AlertWebhookQueue<AlertViewState.Item>(
      clock: clock,
      send: { item in
        let response = try await client.get(request(item, to: url, format: format))
        guard (200..<300).contains(response.status) else {
          throw WebhookRefused(status: response.status)
        }
      },
      onEvent: { event in
        switch event {
        case .delivered: metrics.recordAlertWebhook("delivered")
        case .attemptFailed: metrics.recordAlertWebhook("failed")
        case .dropped: metrics.recordAlertWebhook("dropped")
        case .receiverDown(let reason):
          warn("--alert-webhook: cannot deliver to \(url.host ?? "?"): \(reason); retrying")
        case .receiverBack:
          warn("--alert-webhook: \(url.host ?? "?") is back; delivering the queued alerts")
        }
      })
    return ServeAlerts(engine: engine, presenter: presenter, queue: queue)
  }

  /// The tick's one call: the alerts for the page and the stream; never waits for the webhook.
  func tick(_ update: PriceUpdate) -> AlertViewState? {
    guard let state = presenter.presentAlerts(engine.evaluate(update)) else { return nil }
    for item in state.items { queue?.enqueue(item) }
    return state
  }

  /// Delivers until cancelled.
  func run() async {
    await queue?.run()
  }

  private struct WebhookRefused: Error, CustomStringConvertible {
    let status: Int
    var description: String { "HTTP \(status)" }
  }

  private static func request(_ item: AlertViewState.Item, to url: URL, format: BodyFormat)
    -> BTCHTTPRequest
  {
    let variables = item.environment
    switch format {
    case .text:
      return BTCHTTPRequest(
        url: url,
        headers: [
          ("Content-Type", "text/plain; charset=utf-8"), ("Title", item.title),
          (
            "Tags",
            item.direction == "up" ? "chart_with_upwards_trend" : "chart_with_downwards_trend"
          ),
        ],
        body: Data((variables["BTC_PRICE_ALERT_TEXT"] ?? item.title).utf8))
    case .json:
      let fields = [
        ("rule", item.rule), ("direction", item.direction),
        ("price", variables["BTC_PRICE_ALERT_PRICE"] ?? ""),
        ("currency", variables["BTC_PRICE_ALERT_CURRENCY"] ?? ""),
        ("time", variables["BTC_PRICE_ALERT_TIME"] ?? ""),
        ("source", variables["BTC_PRICE_ALERT_SOURCE"] ?? ""),
        ("text", variables["BTC_PRICE_ALERT_TEXT"] ?? ""),
      ]
      let body =
        "{"
        + fields.map { JSONLineRenderer.string($0.0) + ":" + JSONLineRenderer.string($0.1) }
        .joined(separator: ",") + "}"
      return BTCHTTPRequest(
        url: url, headers: [("Content-Type", "application/json")], body: Data(body.utf8))
    }
  }
}
