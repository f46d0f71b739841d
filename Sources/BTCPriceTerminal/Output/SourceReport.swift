import BTCPriceCore
import BTCPriceRuntime

/// What the user hears about the sources: with `--verbose`, every attempt, skip and circuit change
/// as a log line; always, one warning per source and status when a source refuses us, saying what
/// to do about it.
public final class SourceReport: Sendable {
  public enum Level: Sendable {
    case debug, info, notice
  }

  /// The warning for a circuit opened by a cause for a cool-down: its key (a run warns once per
  /// key) and its text; nil for failures that mend themselves.
  public typealias Advice =
    @Sendable (PriceSource, PriceSourceError, Duration) -> (
      key: String, text: String
    )?

  private let log: (@Sendable (Level, String) -> Void)?
  private let warn: @Sendable (String) -> Void
  private let advice: Advice
  private let warned = Locked<Set<String>>([])

  /// - Parameter log: where `--verbose` lines go; nil when not verbose.
  public init(
    log: (@Sendable (Level, String) -> Void)?, warn: @escaping @Sendable (String) -> Void,
    advice: @escaping Advice
  ) {
    self.log = log
    self.warn = warn
    self.advice = advice
  }

  public func tickStarted(_ slot: Int, budget: Duration) {
    log?(.debug, "tick \(slot) started, \(budget.humanText) to get a price")
  }

  /// The chain's event handler; called from the tick's task.
  @Sendable public func record(_ event: PriceSourceEvent) {
    if let log {
      let (level, line) = Self.describe(event)
      log(level, line)
    }
    guard case .circuitChanged(let source, let transition) = event, transition.to == .open,
      let cause = transition.cause, let coolDown = transition.coolDown,
      let advice = advice(source, cause, coolDown)
    else { return }
    // Once per source and status: a refusal that lasts all day is one line, not one an hour.
    if warned.withValue({ $0.insert("\(source.id) \(advice.key)").inserted }) { warn(advice.text) }
  }

  static func describe(_ event: PriceSourceEvent) -> (Level, String) {
    switch event {
    case .delivered(let source, let quote, let latency):
      return (.info, "\(source.id) delivered \(quote.value) in \(latency.humanText)")
    case .failed(let source, let error, let latency):
      return (.info, "\(source.id) failed after \(latency.humanText): \(error)")
    case .skipped(let source, let error):
      return (.debug, "\(source.id) \(error)")
    case .circuitChanged(let source, let transition):
      var line = "\(source.id) circuit \(transition.from) -> \(transition.to)"
      if let coolDown = transition.coolDown { line += " for \(coolDown.humanText)" }
      if let cause = transition.cause { line += " after: \(cause)" }
      if transition.to == .halfOpen { line += " (one probe)" }
      return (.notice, line)
    }
  }

  /// `--verbose`'s first line: `BTC/EUR from binance, …; left out, with no BTC/EUR market: …`.
  public static func chainLine(currency: Currency, sourceIDs: [String], leftOutIDs: [String])
    -> String
  {
    let code = currency.code
    var line = "BTC/\(code) from \(sourceIDs.joined(separator: ", "))"
    if !leftOutIDs.isEmpty {
      line += "; left out, with no BTC/\(code) market: \(leftOutIDs.joined(separator: ", "))"
    }
    return line
  }
}
