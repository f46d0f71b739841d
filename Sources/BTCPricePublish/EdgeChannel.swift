/// The nchan channels an edge serves from, one per route of `btc-price serve` whose bytes change
/// with each tick. Each tick is published to all three, in this order: the page and the price
/// first, so that a viewer woken by the stream's event who then loads `/` or `/api/price` finds
/// that tick there already.
public enum EdgeChannel: String, CaseIterable, Sendable {
  /// `GET /`: the page with the tick already rendered (`PricePage`).
  case page
  /// `GET /api/price`: the `--json` line.
  case price
  /// `GET /api/stream`: the event's data, sent as `event: price`.
  case stream
}
