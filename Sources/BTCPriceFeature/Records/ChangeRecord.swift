import BTCPriceCore

/// The 24-hour change as `--json` and the web API print it, in exact decimals like the price:
/// `"change24h":{"absolute":"-123.45","percent":"-0.18","since":"2026-11-21T14:03:05Z"}`.
/// Absent (the key left out, never zeros) when the history cannot say.
public struct ChangeRecord: Equatable, Sendable {
  /// The price minus the price 24 hours before, exactly: `-123.45`.
  public let absolute: String
  /// Of the price 24 hours before, rounded half up to two decimals and written with both:
  /// `-0.18`, `1.10`, `0.00`.
  public let percent: String
  /// When the history knew the price it is measured from, ISO 8601 in UTC to the second.
  public let since: String

  public init(absolute: String, percent: String, since: String) {
    self.absolute = absolute
    self.percent = percent
    self.since = since
  }

  /// The record of `change`.
  public init(_ change: TwentyFourHourChange) {
    let worded = PriceChange(from: change.reference, to: change.current)
    self.init(
      absolute: worded.amount.plainText, percent: worded.percent.fixedText(fractionDigits: 2),
      since: ISO8601Timestamp.format(change.referenceTime))
  }
}
