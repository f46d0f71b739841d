/// The outcome of one tick, as the presenters see it.
public enum PriceUpdate: Equatable, Sendable {
  /// A source delivered this quote during the tick.
  case fresh(PriceQuote)
  /// The tick failed; `lastKnown` is the newest valid quote from this or an earlier run.
  case stale(lastKnown: PriceQuote?, failure: PriceFetchFailure)

  /// The quote to show: the fresh one, or the last known one.
  public var quote: PriceQuote? {
    switch self {
    case .fresh(let quote): return quote
    case .stale(let lastKnown, _): return lastKnown
    }
  }
}
