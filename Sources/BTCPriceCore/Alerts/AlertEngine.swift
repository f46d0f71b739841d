import BTCPriceRuntime

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Decides, tick by tick, which ``AlertRule``s fire: once per crossing, never on a price that
/// cannot be trusted, and not again after a restart for a crossing that already fired.
///
/// - **Threshold rules** (`above`, `below`) are armed while the price is on the near side and
///   fire when a price crosses the threshold. They re-arm only once the price has gone back past
///   the threshold by ``standardRearmMargin`` (0.5 % of it): a price hovering around 100,000 moves
///   a few dollars a second, and switching from one source to the next (Binance's USDT to
///   Coinbase's USD) moves it by up to a few tenths of a percent without the market moving. A price
///   already past the threshold when the rule is first seen counts as fired: an alert means a
///   crossing, and nothing crossed. Where each rule stands is kept in the ``AlertStateStore``,
///   written only when it changes; so `--once` runs from a status bar also see a crossing that
///   happened between two runs.
/// - **Move rules** (`move:2%/15m`) keep the lowest and highest trusted prices of the window on
///   the injected clock, and fire when the price is `percent` above the lowest or below the
///   highest. After firing the window starts again from that price, so a move fires once and the
///   next alert needs another full move. Their window is in memory only: a new run watches anew.
/// - **Trusted prices** only: a stale tick (its last known value), a quote from an earlier run
///   (the cache, or `--max-age`) or a quote in another currency fires nothing, arms nothing and
///   enters no window. A price the streams' cross-check rejected never reaches the engine: the
///   tick's quote is the one the majority supports (the rejected one is only named on the
///   update), and a disagreement nothing settled is a stale tick.
public final class AlertEngine: Sendable {
  /// How far past the threshold, as a fraction of it, the price must come back before a
  /// threshold rule fires again: 0.5 %.
  public static let standardRearmMargin = Decimal(sign: .plus, exponent: -3, significand: 5)

  public let rules: [AlertRule]
  private let currency: String
  private let clock: ElapsedClock
  private let runStarted: Date
  private let store: (any AlertStateStore)?
  private let rearmMargin: Decimal
  private let warn: @Sendable (String) -> Void
  private let writer: StoreWriter
  private let scope: String
  private let state = Locked(State())

  private struct State {
    /// Every key the store holds, this run's rules and others'.
    var arming: [String: AlertArming] = [:]
    var windows: [AlertRule: MoveWindow] = [:]
  }

  /// - Parameters:
  ///   - rules: the run's rules; repeats count once.
  ///   - currency: the run's currency; thresholds are in it.
  ///   - clock: measures the windows of `move` rules.
  ///   - runStarted: when this run started, on the wall clock: a quote received earlier comes
  ///     from the cache.
  ///   - scope: keeps this kind of run's rules apart in the store (`serve:`), so that a server
  ///     and the terminal runs beside it each report their own crossings.
  ///   - writer: where the store's writes run (``StoreWriter/here``: at once).
  ///   - warn: told when the state file cannot be read or written.
  public init(
    rules: [AlertRule], currency: String, clock: any Clock<Duration>, runStarted: Date,
    store: (any AlertStateStore)?, rearmMargin: Decimal = standardRearmMargin,
    scope: String = "", writer: StoreWriter = .here,
    warn: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.scope = scope
    var seen = Set<AlertRule>()
    self.rules = rules.filter { seen.insert($0).inserted }
    self.currency = currency
    self.clock = ElapsedClock(clock)
    self.runStarted = runStarted
    self.store = store
    self.rearmMargin = rearmMargin
    self.writer = writer
    self.warn = warn
  }

  /// Reads where each rule stood at the end of earlier runs. An unreadable store means "nothing
  /// known", with one warning: the first price then arms or disarms the rules without firing.
  public func restore() {
    guard let store, !rules.isEmpty else { return }
    do {
      let stored = try store.load()
      state.withValue { $0.arming = stored }
    } catch {
      warn("\(error); alerts start from the next price")
    }
  }

  /// Where each rule stands, for views that list them: `nil` while no trusted price was seen
  /// (and none is known from an earlier run), and always `nil` for `move` rules.
  public var arming: [(rule: AlertRule, arming: AlertArming?)] {
    let arming = state.value.arming
    return rules.map { ($0, arming[key($0)]) }
  }

  /// Evaluates one tick; returns the alerts it fires, in the order of the rules.
  public func evaluate(_ update: PriceUpdate) -> [PriceAlert] {
    guard !rules.isEmpty, case .fresh(let quote, _) = update,
      quote.currency == currency, quote.timestamp >= runStarted
    else { return [] }
    let now = clock.now.offset
    let (alerts, changed) = state.withValue { state in
      let before = state.arming
      var alerts: [PriceAlert] = []
      for rule in rules {
        if let alert = evaluate(rule, quote, at: now, in: &state) { alerts.append(alert) }
      }
      return (alerts, state.arming == before ? nil : state.arming)
    }
    // The file is written outside the lock, and only when a rule changed sides.
    if let changed, let store {
      writer.save(for: self, warn: warn) { try store.save(changed) }
    }
    return alerts
  }

  private func evaluate(
    _ rule: AlertRule, _ quote: PriceQuote, at now: Duration, in state: inout State
  ) -> PriceAlert? {
    let price = quote.value
    switch rule.kind {
    case .above(let threshold):
      let rearmBelow = threshold * (1 - rearmMargin)
      return crossing(
        rule, quote, reference: threshold, direction: .up, in: &state,
        past: price > threshold, back: price <= rearmBelow)
    case .below(let threshold):
      let rearmAbove = threshold * (1 + rearmMargin)
      return crossing(
        rule, quote, reference: threshold, direction: .down, in: &state,
        past: price < threshold, back: price >= rearmAbove)
    case .move(let percent, let window):
      var watched = state.windows[rule] ?? MoveWindow()
      defer { state.windows[rule] = watched }
      watched.add(price, at: now, keeping: window)
      // Compared without dividing: (price - low) / low >= percent / 100.
      if (price - watched.low) * 100 >= percent * watched.low {
        let low = watched.low
        watched = MoveWindow()
        watched.add(price, at: now, keeping: window)
        return PriceAlert(rule: rule, direction: .up, quote: quote, reference: low)
      }
      if (watched.high - price) * 100 >= percent * watched.high {
        let high = watched.high
        watched = MoveWindow()
        watched.add(price, at: now, keeping: window)
        return PriceAlert(rule: rule, direction: .down, quote: quote, reference: high)
      }
      return nil
    }
  }

  /// One step of a threshold rule: `past` is "the price is beyond the threshold", `back` "it
  /// came back past it by the margin".
  private func crossing(
    _ rule: AlertRule, _ quote: PriceQuote, reference: Decimal,
    direction: PriceAlert.Direction, in state: inout State, past: Bool, back: Bool
  ) -> PriceAlert? {
    let key = key(rule)
    switch state.arming[key] {
    case nil:
      state.arming[key] = past ? .fired : .armed
    case .armed where past:
      state.arming[key] = .fired
      return PriceAlert(rule: rule, direction: direction, quote: quote, reference: reference)
    case .fired where back:
      state.arming[key] = .armed
    default:
      break
    }
    return nil
  }

  /// The rule's key in the store: a threshold in USD says nothing about one in EUR.
  private func key(_ rule: AlertRule) -> String {
    "\(scope)\(rule) \(currency)"
  }
}

/// The lowest and highest prices of a sliding window, each as a monotonic queue: the front is
/// the extreme, and a price that can never become the extreme again is dropped on arrival.
private struct MoveWindow {
  private var lows: [(at: Duration, price: Decimal)] = []
  private var highs: [(at: Duration, price: Decimal)] = []

  var low: Decimal { lows.first?.price ?? 0 }
  var high: Decimal { highs.first?.price ?? 0 }

  mutating func add(_ price: Decimal, at now: Duration, keeping window: Duration) {
    while let last = lows.last, last.price >= price { lows.removeLast() }
    lows.append((now, price))
    while let last = highs.last, last.price <= price { highs.removeLast() }
    highs.append((now, price))
    let oldest = now - window
    while let first = lows.first, first.at < oldest { lows.removeFirst() }
    while let first = highs.first, first.at < oldest { highs.removeFirst() }
  }
}
