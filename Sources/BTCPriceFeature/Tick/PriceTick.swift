import BTCPriceCore

/// One tick as every view gets it, made once by ``PriceTickLoop``: the feed's update and what the
/// presenter made of it, this tick's alerts included.
public struct PriceTick: Equatable, Sendable {
  /// What the feed decided: a fresh quote, or the last known one after a failure.
  public let update: PriceUpdate
  /// What to show: price, time, banner, record and the alerts this tick fired, worded.
  public let state: PriceViewState
  /// Why no source gives a price, once ``OutageNotice`` has said so, until prices come back; nil
  /// otherwise. `--json` adds it to its stale lines.
  public let outageReason: String?
  /// The day's chart, ending at the shown price, while a price history is known; nil without
  /// one (or in a loop that keeps none). The 24-hour change is in ``state``.
  public let chart: ChartViewState?

  public init(
    update: PriceUpdate, state: PriceViewState, outageReason: String? = nil,
    chart: ChartViewState? = nil
  ) {
    self.update = update
    self.state = state
    self.outageReason = outageReason
    self.chart = chart
  }
}
