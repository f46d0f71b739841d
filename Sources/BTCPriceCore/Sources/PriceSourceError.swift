/// Why one source failed to deliver a valid price.
public enum PriceSourceError: Error, Equatable, Sendable, CustomStringConvertible {
  /// No answer before the deadline; the request was cancelled.
  case timedOut(after: Duration)
  /// The source answered with a status other than 200. `message` is the API's own error text.
  case httpStatus(Int, message: String?)
  /// The source asked us to slow down (HTTP 429), banned this address for ignoring that (HTTP 418),
  /// or said so in its body (`status` is then nil). `retryAfter` is how long it asked us to wait.
  case rateLimited(status: Int?, retryAfter: Duration?, message: String?)
  /// The source refused us in the body of its answer, whatever the status: CryptoCompare's
  /// "You need a valid auth key or api key" comes with HTTP 200. Treated like HTTP 401.
  case refused(String)
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
    case .rateLimited(let status, let retryAfter, let message):
      let what = ["rate limited", status.map { "HTTP \($0)" }, message]
        .compactMap { $0 }.joined(separator: ": ")
      return retryAfter.map { "\(what) (retry after \($0.humanText))" } ?? what
    case .refused(let reason):
      return "refused: \(reason)"
    case .invalidData(let reason):
      return "invalid data: \(reason)"
    case .unreachable(let reason):
      return "unreachable: \(reason)"
    case .skipped(let reason):
      return "not tried: \(reason)"
    }
  }
}
