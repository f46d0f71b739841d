// fuzz-modules: BTCPriceRuntime BTCPriceCore BTCPriceSources
import BTCPriceCore
import BTCPriceSources

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Every candle source's answer, read as the history loader reads it
/// (`CandleSourceDefinition.candles(in:for:period:)`), for every currency and period it serves.
/// The input's first line names the source, currency and period in seconds (`kraken EUR 3600`);
/// the rest is the body of a 200 answer.
///
/// Property: every candle that comes out is a row of the answer, field for field (start, open,
/// high, low, close, in the columns the source documents), in an answer for our pair where the
/// answer names one; each of the fields on the way present once.
let cases: [String: (definition: CandleSourceDefinition, currency: Currency, period: Duration)] =
  Dictionary(
    uniqueKeysWithValues: CandleSourceDefinition.all.flatMap { definition in
      Currency.supported.filter { definition.markets[$0] != nil }.flatMap { currency in
        definition.periods.map { period in
          (
            "\(definition.source.id) \(currency.code) \(period.components.seconds)",
            (definition, currency, period)
          )
        }
      }
    })

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard let (name, body) = splitCase(bytes(data, size)), let chosen = cases[name],
    let candles = try? chosen.definition.candles(
      in: BTCHTTPResponse(status: 200, body: Data(body)), for: chosen.currency,
      period: chosen.period)
  else { return 0 }
  say("\(name) \(candles.count) candles")
  guard let json = OracleJSON.read(body) else {
    violated("\(name): \(candles.count) candles out of bytes that are not JSON")
  }
  guard
    let rows = documentedRows(
      source: chosen.definition.source.id, in: json, currency: chosen.currency.code)
  else {
    violated("\(name): \(candles.count) candles out of an answer with no rows for our pair")
  }
  for candle in candles where !rows.contains(where: { $0.matches(candle) }) {
    violated("\(name): a candle \(candle) that is no row of the answer")
  }
  return 0
}

/// A candle as the answer writes it: the start's text and its unit, the four prices' texts.
struct Row {
  let start: String?
  let milliseconds: Bool
  let open: String?
  let high: String?
  let low: String?
  let close: String?

  func matches(_ candle: Candle) -> Bool {
    guard let start, let written = Int64(start) else { return false }
    let seconds = candle.start.timeIntervalSince1970
    let read = milliseconds ? Int64((seconds * 1_000).rounded()) : Int64(seconds.rounded())
    return read == written && isTheValue(candle.open, of: open)
      && isTheValue(candle.high, of: high) && isTheValue(candle.low, of: low)
      && isTheValue(candle.close, of: close)
  }
}

/// The rows an answer documents for our pair, or nil when it names another pair or a field on
/// the way twice. The pair's names are the exchanges' (docs/SOURCES.md), not the product's
/// tables.
func documentedRows(source: String, in json: OracleJSON, currency: String) -> [Row]? {
  /// A row written as an array: the start in column 0, then the prices in the given columns.
  func arrays(_ rows: OracleJSON?, milliseconds: Bool, open: Int, high: Int, low: Int, close: Int)
    -> [Row]?
  {
    rows?.elements?.compactMap { row in
      guard let fields = row.elements, fields.count > max(open, high, low, close) else {
        return nil
      }
      func text(_ value: OracleJSON) -> String? { value.string ?? value.number }
      return Row(
        start: text(fields[0]), milliseconds: milliseconds, open: text(fields[open]),
        high: text(fields[high]), low: text(fields[low]), close: text(fields[close]))
    }
  }
  switch source {
  case "binance":
    return arrays(json, milliseconds: true, open: 1, high: 2, low: 3, close: 4)
  case "coinbase":
    return arrays(json, milliseconds: false, open: 3, high: 2, low: 1, close: 4)
  case "okx":
    return arrays(json.member("data"), milliseconds: true, open: 1, high: 2, low: 3, close: 4)
  case "kraken":
    guard let result = json.member("result")?.members else { return nil }
    let series = result.filter { $0.name != "last" }
    guard series.count == 1, ["XXBTZ\(currency)", "XBT\(currency)"].contains(series[0].name)
    else { return nil }
    return arrays(series[0].value, milliseconds: false, open: 1, high: 2, low: 3, close: 4)
  case "bitstamp":
    guard let data = json.member("data"), data.member("pair")?.string == "BTC/\(currency)"
    else { return nil }
    return data.member("ohlc")?.elements?.map { row in
      Row(
        start: row.member("timestamp")?.string, milliseconds: false,
        open: row.member("open")?.string, high: row.member("high")?.string,
        low: row.member("low")?.string, close: row.member("close")?.string)
    }
  default:
    violated("no oracle for \(source)'s candles: add its documented shape here")
  }
}
