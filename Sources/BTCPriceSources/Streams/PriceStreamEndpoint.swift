import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One stream to open: where, what to send once connected, and how to read what comes back.
public struct PriceStreamEndpoint: Sendable {
  public let source: PriceSource
  public let url: URL
  /// The stream's name for the pair (`btcusdt`, `BTC-USD`).
  public let market: String
  /// The text messages to send once the connection is open, in order.
  public let subscriptions: [String]
  public let silenceBound: Duration
  /// What to say on a quiet connection, if the exchange wants it.
  public let keepAlive: PriceStreamDefinition.KeepAlive?
  let reader: PriceStreamDefinition.Reader

  /// The largest message we read: the biggest real one (a Coinbase ticker) is under 1 KiB; 64 KiB
  /// leaves room for any acknowledgement while keeping an endless frame from costing memory.
  public static let maximumMessageSize = 64 * 1024

  /// Reads one text message: a trade of our pair, a sign of life (the keep-alive's plain answer
  /// among them), or a notice of shutdown.
  public func read(_ text: String) throws(PriceStreamError) -> PriceStreamMessage {
    if let reply = keepAlive?.plainReply, text == reply { return .alive }
    let json: JSONObjectView
    do {
      json = try JSONObjectView(text)
    } catch {
      switch error {
      case .syntax: throw .invalidMessage("not JSON: \(UntrustedText.excerpt(text))")
      case .notAnObject: throw .invalidMessage("not a JSON object: \(UntrustedText.excerpt(text))")
      }
    }
    return try reader(json, market)
  }
}
