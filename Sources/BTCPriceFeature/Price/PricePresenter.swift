import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Turns a tick's ``PriceUpdate`` into the ``PriceViewState`` every UI renders, and a
/// ``PriceHistory`` into the ``PriceTrendViewState`` of the live panel. Every word and number
/// format the user sees is decided here.
public struct PricePresenter: Sendable {
  public static let placeholder = "-"
  /// The arrow of a value that did not move, or whose move is not known.
  public static let steadyArrow = "•"
  /// What marks a value shown after a failed tick, where a banner does not fit (`--format`).
  public static let staleMarker = "stale"
  public static let bannerPrefix = "Failed to update value. Displaying last updated value from"

  let timestamps: TimestampFormatter
  let currency: Currency
  /// What the user holds, worded on every tick with a price; nil for every view that must not
  /// carry it (all but the terminal's).
  let holdings: Holdings?

  /// - Parameters:
  ///   - currency: the currency of this run, for the pair and the changes; a quote is shown in
  ///     its own currency.
  ///   - holdings: `--holdings` and `--cost-basis`, for the terminal's views only.
  public init(timestamps: TimestampFormatter, currency: Currency = .usd, holdings: Holdings? = nil)
  {
    self.timestamps = timestamps
    self.currency = currency
    self.holdings = holdings
  }

  public func present(_ update: PriceUpdate) -> PriceViewState {
    valuingTheHoldings(presentWithoutHoldings(update), dayBefore: nil)
  }

  private func presentWithoutHoldings(_ update: PriceUpdate) -> PriceViewState {
    switch update {
    case .fresh(let quote, let crossCheck):
      return state(
        showing: quote, stale: false, failure: nil, crossCheck: CrossCheckRecord(crossCheck))
    case .stale(let lastKnown, let failure):
      return state(
        showing: lastKnown, stale: true, failure: failure.description,
        crossCheck: CrossCheckRecord(failure.crossCheck))
    }
  }

  /// The same, with the shown price's change over the 24 hours before it, measured on the day's
  /// history (``TwentyFourHourChange``): worded in ``PriceViewState/change24h`` and in exact
  /// decimals in the record; both absent when the history cannot say.
  public func present(_ update: PriceUpdate, dayHistory: CandleSeries?) -> PriceViewState {
    var state = presentWithoutHoldings(update)
    guard let quote = state.quote, let change = TwentyFourHourChange.of(quote, in: dayHistory)
    else { return valuingTheHoldings(state, dayBefore: nil) }
    let moved = PriceChange(from: change.reference, to: change.current)
    state.change24h = self.change(moved, label: Self.change24hLabel)
    state.change24hAccessibilityLabel = presentSpokenChange24h(moved)
    state.record.change24h = ChangeRecord(change)
    return valuingTheHoldings(state, dayBefore: change.reference)
  }

  /// The state with the holdings worded at its shown quote, once per tick; unchanged without
  /// holdings or a quote.
  private func valuingTheHoldings(_ state: PriceViewState, dayBefore: Decimal?) -> PriceViewState {
    guard let holdings, let quote = state.quote else { return state }
    var state = state
    state.holdings = present(holdings, at: quote, dayBefore: dayBefore)
    return state
  }

  /// The label of the 24-hour change: `▲ +$1,140.00 (+1.68%) in 24 hours`.
  public static let change24hLabel = "in 24 hours"

  /// The same, with the shown price's change over every period whose range's history is given
  /// (the hour and the day on `histories[.day]`, the week on `[.week]`, the month on
  /// `[.month]`): worded in ``PriceViewState/changes`` and in exact decimals in the record's
  /// `changes`; a period the history cannot say is left out.
  public func present(_ update: PriceUpdate, histories: [ChartRange: CandleSeries])
    -> PriceViewState
  {
    var state = present(update, dayHistory: histories[.day])
    guard let quote = state.quote else { return state }
    for period in ChangePeriod.allCases {
      guard let series = histories[period.range],
        let change = TwentyFourHourChange.of(quote, over: period, in: series)
      else { continue }
      state.changes[period] = self.change(
        PriceChange(from: change.reference, to: change.current), label: Self.label(of: period))
      state.record.changes[period] = ChangeRecord(change)
    }
    return state
  }

  /// `in 1 hour`, `in 24 hours`, `in 7 days`, `in 30 days`.
  public static func label(of period: ChangePeriod) -> String {
    switch period {
    case .hour: "in 1 hour"
    case .day: change24hLabel
    case .week: "in 7 days"
    case .month: "in 30 days"
    }
  }

  /// The state before the first tick: the cached value (no banner), or placeholders.
  public func presentRestored(_ quote: PriceQuote?) -> PriceViewState {
    valuingTheHoldings(state(showing: quote, stale: false, failure: nil), dayBefore: nil)
  }

  public func presentTrend(_ history: PriceHistory) -> PriceTrendViewState {
    let range = history.recent.min().flatMap { low in
      history.recent.max().map { high in
        "low \(PriceFormatter.format(low, currency: currency))  "
          + "high \(PriceFormatter.format(high, currency: currency))"
      }
    }
    return PriceTrendViewState(
      sinceLastTick: history.changeSinceLastTick.map { change($0, label: "since last tick") },
      sinceStart: history.changeSinceStart.map { change($0, label: "since start") },
      recentValues: history.recent,
      rangeText: range)
  }

  private func state(
    showing quote: PriceQuote?, stale: Bool, failure: String?, crossCheck: CrossCheckRecord? = nil
  ) -> PriceViewState {
    let timestampText = quote.map { timestamps.format($0.timestamp) } ?? Self.placeholder
    let source = quote?.source.displayName
    return PriceViewState(
      priceText: quote.map {
        PriceFormatter.format($0.value, currency: Currency.named($0.currency) ?? currency)
      } ?? Self.placeholder,
      timestampText: timestampText,
      lastUpdatedText: "Last updated \(timestampText)",
      sourceLineText: source.map { "Last updated \(timestampText) from \($0)" },
      shortSourceLineText: source.map { "Updated \(timestampText) · \($0)" },
      bannerText: stale ? "\(Self.bannerPrefix) \(timestampText)" : nil,
      sourceName: source,
      pairText: "BTC/\(quote?.currency ?? currency.code)",
      accessibilityLabel: spokenLabel(of: quote, timestampText: timestampText, stale: stale),
      isStale: stale,
      record: PriceRecord(
        timestamp: quote.map { ISO8601Timestamp.format($0.timestamp) },
        price: quote.map { $0.value.plainText },
        currency: quote?.currency ?? currency.code,
        source: quote?.source.id,
        stale: stale,
        error: stale ? failure ?? "update failed" : nil,
        crossCheck: crossCheck,
        satsPerUnit: quote.flatMap { Satoshis.perUnit(at: $0.value) }.map { String($0) }),
      quote: quote,
      failureReason: failure)
  }

  /// What VoiceOver says for the price: the value in words with its time and, when the value is
  /// stale, that it is: the banner is a separate element, and a listener who skips it must not
  /// take an old price for the current one.
  private func spokenLabel(of quote: PriceQuote?, timestampText: String, stale: Bool) -> String {
    let label =
      quote.map {
        let spoken = SpokenPrice.text($0.value, currency: Currency.named($0.currency) ?? currency)
        return "Bitcoin price \(spoken), last updated \(timestampText)"
      } ?? "Bitcoin price unavailable"
    return stale ? label + ", \(Self.spokenStaleNotice)" : label
  }

  /// Appended to the spoken price while the banner shows.
  public static let spokenStaleNotice = "not up to date: the latest update failed"

  /// What VoiceOver announces when the banner appears or goes away between two states; nil when
  /// it neither appears nor goes (a banner that stays is not announced again every second).
  public func presentAnnouncement(from previous: PriceViewState, to current: PriceViewState)
    -> String?
  {
    switch (previous.bannerText, current.bannerText) {
    case (nil, .some):
      guard let quote = current.quote else {
        return "Failed to update the Bitcoin price. No price is known yet."
      }
      let spoken = SpokenPrice.text(
        quote.value, currency: Currency.named(quote.currency) ?? currency)
      return "Failed to update the Bitcoin price. Showing \(spoken), from "
        + "\(current.timestampText)."
    case (.some, nil):
      guard let quote = current.quote else { return nil }
      let spoken = SpokenPrice.text(
        quote.value, currency: Currency.named(quote.currency) ?? currency)
      return "Bitcoin price up to date again: \(spoken)."
    default:
      return nil
    }
  }

  /// The 24-hour change in words VoiceOver says the same in every locale:
  /// `up 1,140 dollars since a day ago, 1.68 percent`, `unchanged since a day ago`.
  public func presentSpokenChange24h(_ change: PriceChange) -> String {
    let amount = SpokenPrice.text(abs(change.amount), currency: currency)
    let percent = PriceFormatter.number(change.percent.magnitude, decimals: 2)
    switch change.direction {
    case .up: return "up \(amount) since a day ago, \(percent) percent"
    case .down: return "down \(amount) since a day ago, \(percent) percent"
    case .unchanged: return "unchanged since a day ago"
    }
  }

  /// The change since the last tick in words VoiceOver says the same in every locale:
  /// `up 12 dollars 34 cents since the last tick`, `unchanged since the last tick`.
  public func presentSpokenChange(_ change: PriceChange) -> String {
    let amount = SpokenPrice.text(abs(change.amount), currency: currency)
    switch change.direction {
    case .up: return "up \(amount) since the last tick"
    case .down: return "down \(amount) since the last tick"
    case .unchanged: return "unchanged since the last tick"
    }
  }

  /// The change since the last tick, worded: for views that show it alone (`--format`,
  /// Waybar).
  public func presentChange(_ change: PriceChange) -> PriceTrendViewState.Change {
    self.change(change, label: "since last tick")
  }

  /// `▲ +$12.34 (+0.02%)`, `▼ -$5.00 (-0.01%)` or `• unchanged`, with its label.
  func worded(_ change: PriceChange, label: String) -> PriceTrendViewState.Change {
    self.change(change, label: label)
  }

  /// `▲ +$12.34 (+0.02%)`, `▼ -$5.00 (-0.01%)` or `• unchanged`.
  private func change(_ change: PriceChange, label: String) -> PriceTrendViewState.Change {
    let arrow: String
    switch change.direction {
    case .up: arrow = "▲"
    case .down: arrow = "▼"
    case .unchanged: arrow = Self.steadyArrow
    }
    let amount = PriceFormatter.formatChange(change.amount, currency: currency)
    let percent = PriceFormatter.formatPercentChange(change.percent, direction: change.amount)
    return PriceTrendViewState.Change(
      text: change.direction == .unchanged
        ? "\(arrow) unchanged" : "\(arrow) \(amount) (\(percent))",
      label: label, direction: change.direction, arrow: arrow, amountText: amount,
      percentText: percent)
  }
}
