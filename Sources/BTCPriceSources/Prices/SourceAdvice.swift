import BTCPriceCore

/// What to tell the user when a source refuses us: one warning, saying what to do about it.
public struct SourceAdvice: Equatable, Sendable {
  /// The HTTP status the advice is about; a run warns once per source and status.
  public let status: Int
  public let text: String

  public init(status: Int, text: String) {
    self.status = status
    self.text = text
  }
}

extension PriceSourceDefinition {
  /// The warning for a circuit opened by `cause` for `coolDown`, or nil for failures that mend
  /// themselves (timeouts, 5xx, 429: `--verbose` shows those).
  public func advice(for cause: PriceSourceError, coolDown: Duration, apiKeyGiven: Bool)
    -> SourceAdvice?
  {
    let pause = "not asking it again for \(coolDown.humanText)"
    let id = source.id
    switch cause {
    case .refused:
      // Said in the body of a 200, but it means what a 401 means.
      let evidence = "an API key error in its answer"
      let text =
        specificAdvice(401, evidence, pause, apiKeyGiven)
        ?? "\(id) refuses our requests (\(evidence)); \(pause)."
      return SourceAdvice(status: 401, text: text)
    case .httpStatus(let status, _) where [401, 403, 451].contains(status):
      if let text = specificAdvice(status, "HTTP \(status)", pause, apiKeyGiven) {
        return SourceAdvice(status: status, text: text)
      }
      let why = [
        401: "wants credentials", 403: "forbids our requests", 451: "refuses this location",
      ]
      return SourceAdvice(
        status: status, text: "\(id) \(why[status] ?? "refuses us") (HTTP \(status)); \(pause).")
    case .rateLimited(status: 418, _, _):
      return SourceAdvice(
        status: 418, text: "\(id) has banned this address (HTTP 418); \(pause), as it asked.")
    default:
      return nil
    }
  }
}
