/// Something that happened to one source during a tick.
public enum PriceSourceEvent: Equatable, Sendable {
  case delivered(PriceSource, PriceQuote, latency: Duration)
  case failed(PriceSource, PriceSourceError, latency: Duration)
  /// Not asked: its circuit is open, or the tick had no time left.
  case skipped(PriceSource, PriceSourceError)
  case circuitChanged(PriceSource, CircuitTransition)
}
