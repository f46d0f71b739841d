import BTCPriceCore

/// "Say it once" for the streams' cross-check: one stderr line when two streams start to
/// disagree, one when they agree again, nothing in between (`--verbose` has a line for every
/// disagreeing tick, ``verboseText(_:)``).
///
/// An episode is the run of ticks from the first one on which two streams disagree (settled by a
/// referee or not) to the first one on which two streams agree again. Ticks with no cross-check
/// (fewer than two streams alive, or REST) neither end it nor start one: a stream that drops out
/// and comes back still wrong is the same episode, not a new notice a minute.
///
/// A value the caller keeps and feeds every tick's update.
public struct CrossCheckNotice: Sendable {
  private var disagreeing = false

  public init() {}

  /// The line to print for this tick's update, if any.
  public mutating func record(_ update: PriceUpdate) -> String? {
    switch update.crossCheck {
    case nil:
      return nil
    case .agreed(let quote, let other):
      guard disagreeing else { return nil }
      disagreeing = false
      return "the \(quote.source.id) and \(other.id) streams agree again"
    case .settled(let shown, let rejected, let referee):
      guard !disagreeing else { return nil }
      disagreeing = true
      return "the \(rejected.source.id) stream's price \(Self.money(rejected)) is not shown: "
        + "\(shown.source.id) (\(Self.money(shown))) and \(referee.id) agree on another; showing "
        + "\(shown.source.id)'s while they disagree (--verbose for each tick)"
    case .unsettled(let a, let b):
      guard !disagreeing else { return nil }
      disagreeing = true
      return "the \(a.source.id) (\(Self.money(a))) and \(b.source.id) (\(Self.money(b))) "
        + "streams disagree and no third source could say which is right: showing neither, "
        + "the ticks fail while they disagree"
    }
  }

  /// The `--verbose` line of a tick on which two streams disagreed.
  public static func verboseText(_ outcome: CrossCheckOutcome) -> String {
    switch outcome {
    case .agreed(let quote, let other):
      "cross-check: \(quote.source.id) (\(quote.value)) and \(other.id) agree"
    case .settled(let shown, let rejected, let referee):
      "cross-check: rejected \(rejected.source.id) (\(rejected.value)); \(shown.source.id) "
        + "(\(shown.value)) and \(referee.id) agree"
    case .unsettled(let a, let b):
      "cross-check: \(a.source.id) (\(a.value)) and \(b.source.id) (\(b.value)) disagree and "
        + "no third source settled it; the tick fails"
    }
  }

  private static func money(_ quote: PriceQuote) -> String {
    PriceFormatter.format(quote.value, currency: Currency.named(quote.currency) ?? .usd)
  }
}
