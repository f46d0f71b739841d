import BTCPriceServer
import BTCPriceSources

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What one tick publishes to one channel of an edge: the very bytes `btc-price serve` answers
/// on that channel's route, and the headers nchan keeps with the message (its `Content-Type`,
/// which nchan sends to poll subscribers, and the stream's `event:` name).
public struct EdgeMessage: Equatable, Sendable {
  public let channel: EdgeChannel
  public let contentType: String
  public let body: String
  /// `X-EventSource-Event`, nchan's header for the `event:` line of an SSE message.
  public let eventName: String?

  /// The tick's three messages, in ``EdgeChannel``'s order: every byte from serve's own encoding
  /// (``PriceEvent`` and ``PricePage``), so an edge cannot drift from `serve`.
  public static func messages(for event: PriceEvent, alertRules: String? = nil) -> [EdgeMessage] {
    EdgeChannel.allCases.map { channel in
      switch channel {
      case .page:
        return EdgeMessage(
          channel: .page, contentType: "text/html; charset=utf-8",
          body: PricePage.render(latest: event, alertRules: alertRules), eventName: nil)
      case .price:
        return EdgeMessage(
          channel: .price, contentType: "application/json", body: event.json + "\n",
          eventName: nil)
      case .stream:
        return EdgeMessage(
          channel: .stream, contentType: "application/json", body: event.data,
          eventName: ServerSentEvents.priceEventName)
      }
    }
  }

  /// The POST to `target` that publishes this message; nchan answers it with the channel's
  /// state as JSON (``EdgeChannelInfo``).
  public func request(to target: PublishTarget) -> BTCHTTPRequest {
    var headers: [(name: String, value: String)] = [
      ("Content-Type", contentType), ("Accept", "text/json"),
    ]
    if let eventName { headers.append(("X-EventSource-Event", eventName)) }
    if let authorization = target.authorization { headers.append(("Authorization", authorization)) }
    return BTCHTTPRequest(
      url: target.url(for: channel), headers: headers, maxBodySize: 4 * 1024,
      body: Data(body.utf8))
  }
}
