import BTCPriceCore
import Foundation
import Logging

/// What the user hears about the sources: with `--verbose`, every attempt, skip and circuit change
/// on stderr; always, one warning per source and cause when a source refuses us, saying what to
/// do about it.
final class SourceReport: @unchecked Sendable {
  private let log: Logger?
  private let apiKeyGiven: Bool
  private let lock = NSLock()
  /// Guarded by `lock`.
  private var warned: Set<String> = []

  init(log: Logger?, apiKeyGiven: Bool) {
    self.log = log
    self.apiKeyGiven = apiKeyGiven
  }

  func tickStarted(_ slot: Int, budget: Duration) {
    log?.debug("tick \(slot) started, \(budget.humanText) to get a price")
  }

  /// The chain's event handler; called from the tick's task.
  @Sendable func record(_ event: PriceSourceEvent) {
    if let log { Self.describe(event, to: log) }
    guard case .circuitChanged(let source, let transition) = event, transition.to == .open,
      let cause = transition.cause, let coolDown = transition.coolDown,
      let advice = Self.advice(
        for: source, cause: cause, coolDown: coolDown, apiKeyGiven: apiKeyGiven)
    else { return }
    // Once per source and status: a refusal that lasts all day is one line, not one an hour.
    let key = "\(source.id) \(advice.status)"
    if lock.withLock({ warned.insert(key).inserted }) { Console.warn(advice.text) }
  }

  private static func describe(_ event: PriceSourceEvent, to log: Logger) {
    switch event {
    case .delivered(let source, let quote, let latency):
      log.info("\(source.id) delivered \(quote.value) in \(latency.humanText)")
    case .failed(let source, let error, let latency):
      log.info("\(source.id) failed after \(latency.humanText): \(error)")
    case .skipped(let source, let error):
      log.debug("\(source.id) \(error)")
    case .circuitChanged(let source, let transition):
      var line = "\(source.id) circuit \(transition.from) -> \(transition.to)"
      if let coolDown = transition.coolDown { line += " for \(coolDown.humanText)" }
      if let cause = transition.cause { line += " after: \(cause)" }
      if transition.to == .halfOpen { line += " (one probe)" }
      log.notice("\(line)")
    }
  }

  /// The warning for a source that refuses us, or nil for failures that mend themselves.
  static func advice(
    for source: PriceSource, cause: PriceSourceError, coolDown: Duration, apiKeyGiven: Bool
  ) -> (status: Int, text: String)? {
    let pause = "not asking it again for \(coolDown.humanText)"
    switch cause {
    case .httpStatus(401, _) where source == .cryptoCompare:
      let text =
        apiKeyGiven
        ? "cryptocompare rejected the key in CRYPTOCOMPARE_API_KEY (HTTP 401); \(pause)."
        : "cryptocompare needs an API key since May 2026 (HTTP 401); \(pause). To use it, "
          + "set CRYPTOCOMPARE_API_KEY to a key from https://www.cryptocompare.com/cryptopian/api-keys"
      return (401, text)
    case .httpStatus(451, _) where source == .binance:
      return (
        451,
        "binance refuses requests from this location (HTTP 451); \(pause). In the US, use "
          + "Binance.US: --binance-url 'https://api.binance.us/api/v3/ticker/price?symbol=BTCUSDT'"
      )
    case .httpStatus(let status, _) where [401, 403, 451].contains(status):
      let why = [
        401: "wants credentials", 403: "forbids our requests", 451: "refuses this location",
      ]
      return (status, "\(source.id) \(why[status] ?? "refuses us") (HTTP \(status)); \(pause).")
    case .rateLimited(status: 418, _, _):
      return (418, "\(source.id) has banned this address (HTTP 418); \(pause), as it asked.")
    default:
      return nil
    }
  }
}
