import BTCPriceCore

/// The machine-readable values of one tick, already in their output form: what `--json` and the
/// web API print, field by field.
public struct PriceRecord: Equatable, Sendable {
  /// When the shown price was received, ISO 8601 in UTC to the second; nil when none is known.
  public let timestamp: String?
  /// The exact decimal, e.g. `68901.23`; nil when none is known.
  public let price: String?
  /// The ISO 4217 code, e.g. `USD`.
  public let currency: String
  /// The id of the source that delivered the price, e.g. `binance`.
  public let source: String?
  /// True when the last tick failed.
  public let stale: Bool
  /// Why the last tick failed; nil when it succeeded.
  public let error: String?
  /// The streams' disagreement this tick: the price the cross-check kept off the screen, or the
  /// two it could not settle; nil on every other tick.
  public var crossCheck: CrossCheckRecord? = nil
  /// The shown price against the price 24 hours before it; nil when the history cannot say.
  public var change24h: ChangeRecord? = nil
  /// The shown price against the price an hour, a day, a week and a month before it, each
  /// where the history can say (``ChangePeriod``).
  public var changes: [ChangePeriod: ChangeRecord] = [:]
  /// Satoshis one unit of the currency buys at the shown price (``Satoshis``), e.g. `1451`;
  /// stale with the price, nil when no price is known.
  public var satsPerUnit: String? = nil
}
