/// Why one source failed to deliver a valid price.
public enum PriceSourceError: Error, Equatable, Sendable, CustomStringConvertible {
  /// No answer before the deadline; the request was cancelled.
  case timedOut(after: Duration)
  /// The source answered with a status other than 200. `message` is the API's own error text.
  case httpStatus(Int, message: String?)
  /// The source answered 200 but the payload is not a valid BTC/USD price.
  case invalidData(String)
  /// No HTTP answer at all: refused, reset, DNS, TLS, ...
  case unreachable(String)
  /// The source was not asked, for the reason given.
  case skipped(String)

  public var description: String {
    switch self {
    case .timedOut(let after):
      return "timed out after \(after.millisecondsText)"
    case .httpStatus(let status, let message?):
      return "HTTP \(status): \(message)"
    case .httpStatus(let status, nil):
      return "HTTP \(status)"
    case .invalidData(let reason):
      return "invalid data: \(reason)"
    case .unreachable(let reason):
      return "unreachable: \(reason)"
    case .skipped(let reason):
      return "not tried: \(reason)"
    }
  }
}

extension Duration {
  /// `800 ms`, `1500 ms`: the unit people read in deadlines.
  var millisecondsText: String {
    let (seconds, attoseconds) = components
    let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
    return "\(milliseconds) ms"
  }
}
