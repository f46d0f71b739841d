/// Remembers each range's history across runs, beside the last price.
///
/// Contract (checked by the store specs every implementation runs, as for ``PriceStore``):
/// - `load(_:)` returns `nil` when nothing was saved for that range yet, and throws when what is
///   stored cannot be read or decoded. A failed load never destroys the stored history.
/// - `save(_:for:)` replaces that range's history atomically: a reader sees the old or the new
///   series, never a mix; when it throws, the previous one is still there. Ranges are kept apart.
public protocol CandleStore: Sendable {
  func load(_ range: ChartRange) throws -> CandleSeries?
  func save(_ series: CandleSeries, for range: ChartRange) throws
}
