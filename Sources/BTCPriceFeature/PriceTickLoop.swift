import BTCPriceCore

/// The one tick loop of every front end (the terminal, `serve` and the iPhone screen): on the
/// ticker's fixed-rate grid, asks the feed for the tick's update within the tick's budget and
/// hands what the presenter makes of it to the view.
public struct PriceTickLoop: Sendable {
  public let ticker: PriceTicker
  private let feed: PriceFeed
  private let presenter: PricePresenter
  private let tickStarted: @Sendable (_ slot: Int, _ budget: Duration) -> Void

  /// - Parameter tickStarted: told each tick's slot and budget before the sources are asked
  ///   (`--verbose` logs it).
  public init(
    interval: Duration, clock: any Clock<Duration>, feed: PriceFeed, presenter: PricePresenter,
    tickStarted: @escaping @Sendable (_ slot: Int, _ budget: Duration) -> Void = { _, _ in }
  ) {
    self.ticker = PriceTicker(interval: interval, clock: clock)
    self.feed = feed
    self.presenter = presenter
    self.tickStarted = tickStarted
  }

  /// Runs `count` ticks, or until the calling task is cancelled when `count` is nil. A tick
  /// cancelled in flight shows nothing.
  ///
  /// - Throws: `CancellationError` when cancelled, or what `show` throws, which ends the loop.
  public func run(
    count: Int? = nil, show: @escaping @Sendable (PriceViewState) async throws -> Void
  ) async throws {
    try await run(count: count) { _, state in try await show(state) }
  }

  /// The same, also handing the view the tick's update itself, for what reads more than the
  /// words: the reason a tick failed (`--json`'s outage reason), a fresh quote's source.
  public func run(
    count: Int? = nil,
    handle: @escaping @Sendable (PriceUpdate, PriceViewState) async throws -> Void
  ) async throws {
    let (feed, presenter, tickStarted) = (self.feed, self.presenter, self.tickStarted)
    try await ticker.run(count: count) { slot, budget in
      tickStarted(slot, budget)
      guard let update = try? await feed.update(within: budget) else { return }
      try await handle(update, presenter.present(update))
    }
  }
}
