/// The outcome of one tick, as the presenters see it.
public enum PriceUpdate: Equatable, Sendable {
  /// A source delivered this quote during the tick. `crossCheck` is what the streams' cross-check
  /// decided (nil when fewer than two streams were alive, or over REST): when it rejected a
  /// price, `quote` is the one the majority supports and the rejected one is only named there.
  case fresh(PriceQuote, crossCheck: CrossCheckOutcome? = nil)
  /// The tick failed; `lastKnown` is the newest valid quote from this or an earlier run.
  case stale(lastKnown: PriceQuote?, failure: PriceFetchFailure)

  /// The quote to show: the fresh one, or the last known one.
  public var quote: PriceQuote? {
    switch self {
    case .fresh(let quote, _): return quote
    case .stale(let lastKnown, _): return lastKnown
    }
  }

  /// What the streams' cross-check decided this tick: on a fresh tick its verdict, on a failed
  /// one the disagreement nothing settled (nil when the tick failed for another reason).
  public var crossCheck: CrossCheckOutcome? {
    switch self {
    case .fresh(_, let crossCheck): return crossCheck
    case .stale(_, let failure): return failure.crossCheck
    }
  }
}
