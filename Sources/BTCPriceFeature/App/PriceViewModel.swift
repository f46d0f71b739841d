import BTCPriceCore
import BTCPriceRuntime
import Observation

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What the app's price screen shows, and when it ticks.
///
/// The screen only binds to these properties and forwards two events: ``run()`` from its `.task`
/// (so leaving the screen cancels everything) and ``phaseDidChange(to:)`` on every scene phase
/// change. Ticks go through the same ``PriceTicker``, ``PriceFeed`` and ``PricePresenter`` as the
/// terminal, so price, rhythm, fallback, cache and banner match it.
@MainActor
@Observable
public final class PriceViewModel {
  /// `$68,901.23`, or `-` while no value is known.
  public private(set) var priceText = ""
  /// `Last updated Nov 22, 14:03`, or `Last updated -` while no value is known.
  public private(set) var lastUpdatedText = ""
  /// The failure banner while the shown value is stale; `nil` when hidden.
  public private(set) var bannerText: String?
  /// Who delivered the shown value, e.g. `Binance`.
  public private(set) var sourceName: String?
  /// True when the last tick failed and an older value (or none) is shown.
  public private(set) var isStale = false
  /// What VoiceOver says for the price and its time, in words that do not depend on the locale;
  /// it says so when the value is stale.
  public private(set) var accessibilityLabel = ""
  /// The pair shown: `BTC/EUR`.
  public private(set) var pairText = ""
  /// What VoiceOver should announce now (the banner appeared or went away); each new one has a
  /// new sequence number.
  public private(set) var announcement: SpokenAnnouncement?
  /// `▲ +$12.34 (+0.02%)` since the last tick, as the terminal shows it; nil until two ticks.
  public private(set) var changeText: String?
  /// Which way the price moved since the last tick, for the change's colour.
  public private(set) var changeDirection: PriceChange.Direction?
  /// The change in words for VoiceOver: `up 12 dollars 34 cents since the last tick`.
  public private(set) var changeAccessibilityLabel: String?
  /// The last fresh values of this run (at most ``PriceHistory/sparklineCapacity``), as heights
  /// from 0 to 1 for a sparkline; empty below two values.
  public private(set) var sparklineHeights: [Double] = []
  /// `low $68,800.00  high $68,950.00` over the sparkline's values; nil while there are none.
  public private(set) var rangeText: String?
  /// `▲ +$1,140.00 (+1.68%) in 24 hours`; nil while the price history cannot say (never a zero).
  public private(set) var change24hText: String?
  /// Which way the price moved in 24 hours, for the change's colour.
  public private(set) var change24hDirection: PriceChange.Direction?
  /// The 24-hour change in words for VoiceOver: `up 1,140 dollars since a day ago, 1.68 percent`.
  public private(set) var change24hAccessibilityLabel: String?
  /// The day's chart: its points (x and close from 0 to 1), time axis marks, low and high texts,
  /// direction and spoken words; nil without a price history. Swift Charts only draws it.
  public private(set) var chart: ChartViewState?

  @ObservationIgnored private let feed: PriceFeed
  @ObservationIgnored private let ticks: PriceTickLoop
  @ObservationIgnored private let presenter: PricePresenter
  @ObservationIgnored private var phase = AppPhase.active
  /// The latest ticker task. A new one first awaits the previous one, so even rapid
  /// background/active toggling never has two tickers (or two requests) at once.
  @ObservationIgnored private var ticking: Task<Void, Never>?
  @ObservationIgnored private var isTicking = false
  /// Which call of ``run()`` owns the screen; 0 while none does.
  @ObservationIgnored private var owner = 0
  @ObservationIgnored private var runs = 0
  @ObservationIgnored private let backgroundTask: BackgroundTaskHooks
  @ObservationIgnored private var shown: PriceViewState?
  @ObservationIgnored private var history = PriceHistory()

  /// - Parameters:
  ///   - clock: drives the one-second rhythm; tests pass a test clock.
  ///   - timeZone: for the `MMM d, HH:mm` timestamps the apps show, asked at every render so the
  ///     texts follow the user's zone after travel without a relaunch.
  ///   - currency: the currency the feed's sources quote in, for the pair and the changes.
  ///   - backgroundTask: keeps the app running while the save on the way to the background ends.
  ///   - connections: opened whenever ticking starts and closed whenever it stops (the price
  ///     streams the feed reads first, ``PriceTickLoop``, and the history's fetches): open in the
  ///     foreground only.
  ///   - history: the price history each tick extends and the 24-hour change and the day's
  ///     chart come from; nil shows neither.
  public init(
    feed: PriceFeed, clock: any Clock<Duration>, interval: Duration = PriceDefaults.interval,
    timeZone: @escaping @Sendable () -> TimeZone = { .autoupdatingCurrent },
    currency: Currency = .usd, backgroundTask: BackgroundTaskHooks = .none,
    connections: PriceConnections = .none, history: CandleHistory? = nil
  ) {
    self.feed = feed
    self.backgroundTask = backgroundTask
    let presenter = PricePresenter(
      timestamps: TimestampFormatter(precision: .minutes, timeZone: timeZone), currency: currency)
    self.presenter = presenter
    self.ticks = PriceTickLoop(
      interval: interval, clock: clock, feed: feed, presenter: presenter,
      connections: connections, history: history)
    show(presenter.presentRestored(nil))
  }

  /// Shows the cached value at once, then ticks whenever the phase allows, until the calling task
  /// is cancelled (the screen went away). Returns only after the request in flight has ended.
  public func run() async {
    runs += 1
    let run = runs
    let restored = await feed.restore()
    guard !Task.isCancelled else { return }
    show(presenter.presentRestored(restored))
    owner = run
    if phase != .background { startTicking() }
    await suspendUntilCancelled()
    // A newer run may already own the screen (SwiftUI can start the next `.task` before this one
    // resumes); its ticker must live on.
    guard owner == run else { return }
    owner = 0
    stopTicking()
    await ticking?.value
  }

  /// The one entry point for lifecycle changes: background stops ticking, cancels the request in
  /// flight, closes the connections and then saves the last known value if it is not saved yet;
  /// active reopens the connections and ticks at once and every interval from then on; inactive
  /// changes nothing.
  public func phaseDidChange(to phase: AppPhase) {
    self.phase = phase
    guard owner != 0 else { return }
    switch phase {
    case .active: startTicking()
    case .inactive: break
    case .background:
      stopTicking()
      persistOnTheWayOut()
    }
  }

  private func startTicking() {
    guard !isTicking else { return }
    isTicking = true
    let previous = ticking
    let ticks = self.ticks
    // The loop's connections live exactly as long as its ticks: cancelling `ticking`
    // (background, leaving the screen) closes them too, and the next start awaits `previous`, so
    // a quick return never has two sets open.
    ticking = Task {
      await previous?.value
      guard !Task.isCancelled else { return }
      _ = try? await ticks.run { tick in await self.render(tick) }
    }
  }

  private func stopTicking() {
    ticking?.cancel()
    isTicking = false
  }

  /// Flushes once the cancelled tick has ended, so no tick still in flight can race the save (and
  /// a cancelled tick writes nothing), under a background-task assertion so that iOS does not
  /// suspend the app in the middle of it.
  private func persistOnTheWayOut() {
    let (cancelled, feed) = (ticking, self.feed)
    BackgroundTaskAssertion.perform("Save the last Bitcoin price", hooks: backgroundTask) {
      await cancelled?.value
      await feed.flush()
    }
  }

  private func render(_ tick: PriceTick) {
    // Ticks are cancelled on the main actor, so checking here means a tick cancelled by going to
    // the background can never change the screen afterwards.
    guard !Task.isCancelled else { return }
    let state = tick.state
    history.record(state)
    showTrend(presenter.presentTrend(history))
    change24hText = state.change24h.map { "\($0.text) \($0.label)" }
    change24hDirection = state.change24h?.direction
    change24hAccessibilityLabel = state.change24hAccessibilityLabel
    chart = tick.chart
    show(state)
  }

  private func showTrend(_ trend: PriceTrendViewState) {
    changeText = trend.sinceLastTick?.text
    changeDirection = trend.sinceLastTick?.direction
    changeAccessibilityLabel = history.changeSinceLastTick.map(presenter.presentSpokenChange)
    sparklineHeights = SparklinePoints.heights(trend.recentValues)
    rangeText = trend.rangeText
  }

  /// Observation ignores assignments of an equal value, so a tick that repeats the shown texts
  /// notifies no observer. That is why the model exposes texts, not the quote: its timestamp
  /// changes every tick, and the screen would redraw every second for nothing.
  private func show(_ state: PriceViewState) {
    priceText = state.priceText
    lastUpdatedText = state.lastUpdatedText
    bannerText = state.bannerText
    sourceName = state.sourceName
    isStale = state.isStale
    accessibilityLabel = state.accessibilityLabel
    pairText = state.pairText
    if let shown, let text = presenter.presentAnnouncement(from: shown, to: state) {
      announcement = SpokenAnnouncement(text: text, sequence: (announcement?.sequence ?? 0) + 1)
    }
    shown = state
  }

  private func suspendUntilCancelled() async {
    // An AsyncStream that never yields ends its iteration when the task is cancelled.
    let (cancelled, continuation) = AsyncStream.makeStream(of: Never.self)
    for await _ in cancelled {}
    continuation.finish()
  }
}
