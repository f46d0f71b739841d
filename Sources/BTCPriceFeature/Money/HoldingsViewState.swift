import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What the user's holdings are worth at the shown price, worded and in exact decimals: what
/// `{value}`, `{value_change_24h}`, `{pnl}`, `{pnl_pct}`, the live panel and `--json`'s `holdings`
/// show. Only a presenter given ``Holdings`` makes one, and only the terminal's is: `serve`,
/// `publish`, the app and the widget never carry them.
public struct HoldingsViewState: Equatable, Sendable {
  /// `0.25 BTC`.
  public let amountText: String
  /// `$17,225.31`: the amount times the shown price, rounded half up to the currency's minor
  /// unit.
  public let valueText: String
  /// `▲ +$285.00 (+1.68%)` `in 24 hours`: the value against the value at the price 24 hours
  /// before; nil when the history cannot say (never a zero).
  public let change24h: PriceTrendViewState.Change?
  /// `▲ +$2,225.31 (+14.84%)` `since bought`: the value against the cost basis; nil without one,
  /// or with one in another currency than the shown one.
  public let gain: PriceTrendViewState.Change?
  /// The same in `--json`'s form.
  public let record: HoldingsRecord
}

/// The holdings as `--json` prints them, in exact decimals like the price:
/// `"holdings":{"amount":"0.25","value":"17225.31","change24h":"285.00",
/// "pnl":{"absolute":"2225.31","percent":"14.84"}}`. `change24h` is left out when the history
/// cannot say, `pnl` without a cost basis in the shown currency.
public struct HoldingsRecord: Equatable, Sendable {
  /// Bitcoin, as given: `0.25`.
  public let amount: String
  /// The worth, with the currency's minor units: `17225.31`, `¥2,730,000` as `2730000`.
  public let value: String
  /// The worth's change over 24 hours, signed: `285.00`, `-31.25`.
  public let change24h: String?
  /// The gain over the cost basis: its amount (signed, minor units) and percent (two decimals).
  public let pnl: Gain?

  public struct Gain: Equatable, Sendable {
    public let absolute: String
    public let percent: String

    public init(absolute: String, percent: String) {
      self.absolute = absolute
      self.percent = percent
    }
  }

  public init(amount: String, value: String, change24h: String?, pnl: Gain?) {
    self.amount = amount
    self.value = value
    self.change24h = change24h
    self.pnl = pnl
  }
}

extension PricePresenter {
  /// The label of the gain over the cost basis.
  public static let gainLabel = "since bought"

  /// The holdings at the shown quote, with the worth's change since the price `dayBefore` when
  /// it is known.
  func present(_ holdings: Holdings, at quote: PriceQuote, dayBefore: Decimal?)
    -> HoldingsViewState
  {
    let shown = Currency.named(quote.currency) ?? currency
    let valued = holdings.valued(at: quote.value, in: shown, dayBefore: dayBefore)
    let scale = shown.minorUnits
    let change = valued.change24h.map {
      worded(PriceChange(from: valued.value - $0, to: valued.value), label: Self.change24hLabel)
    }
    return HoldingsViewState(
      amountText: "\(valued.amount.plainText) BTC",
      valueText: PriceFormatter.format(valued.value, currency: shown),
      change24h: change,
      gain: valued.gain.map { worded($0, label: Self.gainLabel) },
      record: HoldingsRecord(
        amount: valued.amount.plainText,
        value: valued.value.fixedText(fractionDigits: scale),
        change24h: valued.change24h?.fixedText(fractionDigits: scale),
        pnl: valued.gain.map {
          HoldingsRecord.Gain(
            absolute: $0.amount.fixedText(fractionDigits: scale),
            percent: $0.percent.fixedText(fractionDigits: 2))
        }))
  }
}
