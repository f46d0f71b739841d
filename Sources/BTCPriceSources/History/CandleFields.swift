import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The reading every candle mapper shares: a price from its literal text (a JSON string or a
/// JSON number, as each exchange documents it, never through `Double`), a start time in seconds
/// or milliseconds, and the checks that make candles drawable, each failure invalid data.
enum CandleFields {
  enum TimeUnit {
    case seconds, milliseconds
  }

  /// The price in `text`; `field` names it in the error.
  static func price(_ text: String?, _ field: String) throws(PriceSourceError) -> Decimal {
    guard let text else { throw .invalidData("candle \(field) is missing or not of its type") }
    guard let value = ExactDecimal.parse(text) else {
      throw .invalidData("candle \(field) \"\(UntrustedText.excerpt(text))\" is not a number")
    }
    return value
  }

  /// The start in `text`, a whole number of `unit`s since 1970 (no sign, no fraction, before
  /// the year 3000).
  static func start(_ text: String?, in unit: TimeUnit) throws(PriceSourceError) -> Date {
    guard let text, (1...16).contains(text.utf8.count),
      text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
      let whole = Int64(text)
    else {
      throw .invalidData("candle time \"\(UntrustedText.excerpt(text ?? "?"))\" is not a time")
    }
    let seconds = unit == .seconds ? Double(whole) : Double(whole) / 1_000
    guard seconds < 32_503_680_000 else {
      throw .invalidData("candle time \(text) is not a time")
    }
    return Date(timeIntervalSince1970: seconds)
  }

  /// A possible candle, or invalid data saying why not.
  static func candle(
    start: Date, open: Decimal, high: Decimal, low: Decimal, close: Decimal
  ) throws(PriceSourceError) -> Candle {
    do {
      return try Candle(start: start, open: open, high: high, low: low, close: close)
    } catch {
      throw .invalidData(error.description)
    }
  }

  /// `candles` oldest first (reversed when the exchange sends the newest first), checked.
  static func ordered(_ candles: [Candle], newestFirst: Bool, period: Duration)
    throws(PriceSourceError) -> [Candle]
  {
    let ordered = newestFirst ? Array(candles.reversed()) : candles
    do {
      try CandleSeries.checkOrder(ordered, period: period)
    } catch {
      throw .invalidData(error.description)
    }
    return ordered
  }

  /// Where an exchange puts a candle's fields in a row of its answer, and how it writes them:
  /// Coinbase's `[time, low, high, open, close, volume]` is `Row(low: 1, high: 2, open: 3,
  /// close: 4, time: .seconds, asNumbers)`.
  struct Row {
    var open = 1
    var high = 2
    var low = 3
    var close = 4
    var unit: TimeUnit
    /// The time's text: a JSON number's (`numberText`) or a string's (`stringValue`).
    var time: (JSONValue) -> String?
    /// Each price's text, likewise.
    var price: (JSONValue) -> String?
  }

  /// The candles of `json`, a JSON array of rows laid out as `row` says, in the answer's order.
  static func candles(_ json: JSONValue?, _ row: Row, in what: String) throws(PriceSourceError)
    -> [Candle]
  {
    guard let rows = json?.arrayValue else { throw .invalidData("\(what) is not an array") }
    let fields = max(row.open, row.high, row.low, row.close) + 1
    var candles: [Candle] = []
    candles.reserveCapacity(rows.count)
    for entry in rows {
      guard let values = entry.arrayValue, values.count >= fields else {
        throw .invalidData("a candle of \(what) has fewer than \(fields) fields")
      }
      candles.append(
        try candle(
          start: try start(row.time(values[0]), in: row.unit),
          open: try price(row.price(values[row.open]), "open"),
          high: try price(row.price(values[row.high]), "high"),
          low: try price(row.price(values[row.low]), "low"),
          close: try price(row.price(values[row.close]), "close")))
    }
    return candles
  }
}
