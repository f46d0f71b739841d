import BTCPriceCore
import BTCPriceRuntime

/// The one path of every tick, for every front end (the terminal, `serve`, the app, the widget):
/// on the ticker's fixed-rate grid it asks the feed for the tick's update within the tick's
/// budget, has the presenter word it, says once what the notices say (``OutageNotice``,
/// ``CrossCheckNotice``), fires the alerts (``AlertEngine``, worded by the presenter) into the
/// deliveries, and hands the view one ``PriceTick``. Front ends plug in a view and deliveries;
/// none re-implements a tick.
///
/// With a price history it records each fresh price into it (the live price extends the last
/// candle), and the tick carries the 24-hour change and the day's chart; the history's own
/// fetches run beside the ticks (in the loop's connections), never per tick.
///
/// It also keeps the connections the ticks read (the price streams) open exactly as long as it
/// runs: opened before the first tick, which waits until they are ready, closed when it ends.
public struct PriceTickLoop: Sendable {
  /// Failed ticks in a row before ``OutageNotice`` says why no price comes; a run of fewer ticks
  /// (`--once`, `--count 2`) says it on its last tick.
  public static let outageThreshold = 3

  public let ticker: PriceTicker
  private let feed: PriceFeed
  private let presenter: PricePresenter
  private let connections: PriceConnections
  private let alerts: AlertEngine?
  private let deliveries: [any AlertDelivery]
  private let history: CandleHistory?
  private let tickStarted: @Sendable (_ slot: Int, _ budget: Duration) -> Void

  /// - Parameters:
  ///   - connections: opened when the loop starts, closed when it ends.
  ///   - alerts: which rules fire on a tick; nil without rules.
  ///   - deliveries: where fired alerts go besides the views.
  ///   - history: the price history each fresh price extends and each tick's change and chart
  ///     are drawn from; nil keeps none. Its fetches are not run here: put them in
  ///     `connections`.
  ///   - tickStarted: told each tick's slot and budget before the sources are asked
  ///     (`--verbose` logs it).
  public init(
    interval: Duration, clock: any Clock<Duration>, feed: PriceFeed, presenter: PricePresenter,
    connections: PriceConnections = .none, alerts: AlertEngine? = nil,
    deliveries: [any AlertDelivery] = [], history: CandleHistory? = nil,
    tickStarted: @escaping @Sendable (_ slot: Int, _ budget: Duration) -> Void = { _, _ in }
  ) {
    self.ticker = PriceTicker(interval: interval, clock: clock)
    self.feed = feed
    self.presenter = presenter
    self.connections = connections
    self.alerts = alerts
    self.deliveries = deliveries
    self.history = history
    self.tickStarted = tickStarted
  }

  /// Opens the connections, waits until they are ready, then runs `count` ticks, or until the
  /// calling task is cancelled when `count` is nil; closes the connections on the way out. A
  /// tick cancelled in flight shows nothing.
  ///
  /// - Returns: the last tick shown; nil when none was.
  /// - Throws: `CancellationError` when cancelled, or what the view throws, which ends the loop.
  @discardableResult
  public func run(count: Int? = nil, view: some PriceTickView) async throws -> PriceTick? {
    let connections = self.connections
    return try await withThrowingTaskGroup(of: Void.self, returning: PriceTick?.self) { group in
      group.addTask { await connections.run() }
      defer { group.cancelAll() }
      await connections.ready()
      return try await ticks(count: count, view: view)
    }
  }

  /// The same, with the view as a closure.
  @discardableResult
  public func run(
    count: Int? = nil, show: @escaping @Sendable (PriceTick) async throws -> Void
  ) async throws -> PriceTick? {
    try await run(count: count, view: ClosureView(show: show))
  }

  private func ticks(count: Int?, view: some PriceTickView) async throws -> PriceTick? {
    let notices = Locked(
      Notices(
        outage: OutageNotice(threshold: min(Self.outageThreshold, count ?? Self.outageThreshold))))
    let last = Locked<PriceTick?>(nil)
    let (feed, tickStarted) = (self.feed, self.tickStarted)
    try await ticker.run(count: count) { slot, budget in
      tickStarted(slot, budget)
      guard let update = try? await feed.update(within: budget) else { return }
      let (lines, outageReason) = notices.withValue { $0.record(update) }
      for line in lines { view.notice(line) }
      if case .fresh(let quote, _) = update { history?.record(quote) }
      let day = history?.held(.day)
      let state = present(update, histories: held(day: day))
      let tick = PriceTick(
        update: update, state: state, outageReason: outageReason,
        chart: chart(day, current: state.quote))
      try await view.show(tick)
      last.withValue { $0 = tick }
    }
    return last.value
  }

  /// The tick's state, with the alerts it fired (handed to the deliveries first). A price the
  /// streams' cross-check rejected is not the update's quote, so it can fire nothing.
  private func present(_ update: PriceUpdate, histories: [ChartRange: CandleSeries])
    -> PriceViewState
  {
    var state =
      history == nil ? presenter.present(update) : presenter.present(update, histories: histories)
    guard let alerts, let fired = presenter.presentAlerts(alerts.evaluate(update)) else {
      return state
    }
    for delivery in deliveries { delivery.deliver(fired) }
    state.alert = fired
    return state
  }

  /// Every range's history held now (the day's given), never read from the disk.
  private func held(day: CandleSeries?) -> [ChartRange: CandleSeries] {
    guard let history else { return [:] }
    var held: [ChartRange: CandleSeries] = [:]
    held[.day] = day
    for range in ChartRange.allCases where range != .day { held[range] = history.held(range) }
    return held
  }

  /// The day's chart ending at the shown price, worded as the tick is.
  private func chart(_ day: CandleSeries?, current: PriceQuote?) -> ChartViewState? {
    guard let history else { return nil }
    return ChartPresenter(timestamps: presenter.timestamps, currency: presenter.currency)
      .present(day, range: .day, current: current, now: history.now())
  }

  /// The say-once notices, fed every tick's update.
  private struct Notices {
    var outage: OutageNotice
    var crossCheck = CrossCheckNotice()

    /// The lines this update calls for, and the outage's reason while it lasts.
    mutating func record(_ update: PriceUpdate) -> (lines: [String], outageReason: String?) {
      let lines = [outage.record(update), crossCheck.record(update)].compactMap { $0 }
      return (lines, outage.reason)
    }
  }

  private struct ClosureView: PriceTickView {
    let show: @Sendable (PriceTick) async throws -> Void

    func show(_ tick: PriceTick) async throws {
      try await show(tick)
    }
  }
}
