/// Why one price stream stopped or said nothing useful. Every one is a reconnect (with back-off)
/// for that stream, never a price.
public enum PriceStreamError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The server did not upgrade the connection: a refusal (`status`, e.g. 451 or 429, with the
  /// wait its `Retry-After` asked for), or no answer to the upgrade at all (`status` nil).
  case handshakeFailed(status: Int?, reason: String, retryAfter: Duration? = nil)
  /// The exchange refused the subscription message.
  case subscriptionRefused(String)
  /// A text message that is not a valid price, heartbeat or acknowledgement for our pair: junk,
  /// another symbol, a price that is not a positive decimal.
  case invalidMessage(String)
  /// A frame larger than the bound we read.
  case frameTooLarge(limit: Int)
  /// A frame the protocol we negotiated does not allow: fragmented, compressed, binary, or text
  /// that is not UTF-8.
  case protocolViolation(String)
  /// The server closed the connection (close frame or end of stream).
  case closed(code: Int?)
  /// Nothing arrived for longer than the stream's silence bound.
  case silent(after: Duration)
  /// No connection at all: refused, reset, DNS, TLS, ...
  case unreachable(String)

  public var description: String {
    switch self {
    case .handshakeFailed(let status?, let reason, let retryAfter):
      let wait = retryAfter.map { " (retry after \($0.humanText))" } ?? ""
      return "upgrade refused: HTTP \(status) \(reason)\(wait)"
    case .handshakeFailed(nil, let reason, _): return "upgrade failed: \(reason)"
    case .subscriptionRefused(let reason): return "subscription refused: \(reason)"
    case .invalidMessage(let reason): return "invalid message: \(reason)"
    case .frameTooLarge(let limit): return "frame larger than \(limit) bytes"
    case .protocolViolation(let reason): return "protocol violation: \(reason)"
    case .closed(let code?): return "closed by the server (code \(code))"
    case .closed(nil): return "closed by the server"
    case .silent(let after): return "silent for \(after.millisecondsText)"
    case .unreachable(let reason): return "unreachable: \(reason)"
    }
  }
}
