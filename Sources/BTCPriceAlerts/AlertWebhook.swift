import BTCPriceCore
import BTCPriceFeature
import BTCPriceSources

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `serve --alert-webhook`: where each alert is POSTed, and in which body.
public struct AlertWebhook: Sendable {
  /// What the webhook's body is.
  public enum BodyFormat: String, CaseIterable, Sendable {
    /// One JSON object per alert: rule, direction, price, currency, time, source, text.
    case json
    /// The alert's sentence as plain text, its title in a `Title` header: ntfy's publish.
    case text
  }

  public let url: URL
  public let format: BodyFormat

  public init(url: URL, format: BodyFormat) {
    self.url = url
    self.format = format
  }

  /// The POST for one alert (a request with a body is a POST).
  public func request(for item: AlertViewState.Item) -> BTCHTTPRequest {
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

  /// Delivers one alert through `client`; throws unless the receiver answers 2xx.
  func send(_ item: AlertViewState.Item, through client: any BTCHTTPClient) async throws {
    let response = try await client.get(request(for: item))
    guard (200..<300).contains(response.status) else {
      throw Refused(status: response.status)
    }
  }

  /// What the user is told of the queue's events: once when the receiver stops taking alerts,
  /// once when it takes them again.
  public func warning(for event: AlertWebhookQueue<AlertViewState.Item>.Event) -> String? {
    switch event {
    case .receiverDown(let reason):
      "--alert-webhook: cannot deliver to \(url.host ?? "?"): \(reason); retrying"
    case .receiverBack:
      "--alert-webhook: \(url.host ?? "?") is back; delivering the queued alerts"
    case .delivered, .attemptFailed, .dropped:
      nil
    }
  }

  /// The `outcome` label a queue event counts under in `/metrics`; nil for the others.
  public static func outcome(of event: AlertWebhookQueue<AlertViewState.Item>.Event) -> String? {
    switch event {
    case .delivered: "delivered"
    case .attemptFailed: "failed"
    case .dropped: "dropped"
    case .receiverDown, .receiverBack: nil
    }
  }

  private struct Refused: Error, CustomStringConvertible {
    let status: Int
    var description: String { "HTTP \(status)" }
  }
}
