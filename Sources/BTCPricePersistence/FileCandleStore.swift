import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Keeps each range's price history in its own small JSON file beside the last price
/// (`history-24h.json`, `history-7d-eur.json`, ...), replaced atomically (``AtomicFile``) as the
/// price cache is, so an offline start can show the day it knew, with its age:
///
/// ```json
/// {"candles":[["1710327600","73241","73293","73240","73285"]],"currency":"USD",
///  "fetchedAt":"2026-11-22T14:03:05.250Z","period":300,"source":"bitstamp","version":1}
/// ```
///
/// Each candle is its start in seconds and its open, high, low and close as exact decimal text.
/// What is read back is checked as an exchange's answer is (``CandleSeries``): a file that does
/// not hold drawable candles is corrupt, never a chart. Its errors are the price cache's
/// (``FilePriceStore/Error``): the history is a cache too.
public struct FileCandleStore: CandleStore {
  public let folder: URL
  /// The sources a history may name, so it shows with its display name; an unknown id is shown
  /// as it is.
  public let knownSources: [PriceSource]
  /// The currency of the run: a history in another one reads as nothing saved.
  public let currency: Currency
  /// A file larger than this is not ours: 720 candles (Kraken's most) take about 50 KB.
  static let maxFileSize = 256 * 1024

  public init(folder: URL, knownSources: [PriceSource], currency: Currency = .usd) {
    self.folder = folder
    self.knownSources = knownSources
    self.currency = currency
  }

  /// The store in the folder of the price cache `priceFile`: one place to look, one place to
  /// delete.
  public init(besidePriceFile priceFile: URL, knownSources: [PriceSource], currency: Currency) {
    self.init(
      folder: priceFile.deletingLastPathComponent(), knownSources: knownSources,
      currency: currency)
  }

  /// `history-24h.json` for USD, `history-24h-eur.json` for the other currencies, as the price
  /// cache names its files.
  public func fileURL(for range: ChartRange) -> URL {
    let suffix = currency == .usd ? "" : "-\(currency.code.lowercased())"
    return folder.appendingPathComponent("history-\(range.rawValue)\(suffix).json")
  }

  public func load(_ range: ChartRange) throws -> CandleSeries? {
    let path = fileURL(for: range).path
    let data: Data
    do {
      guard let read = try file(range).contents() else { return nil }
      data = read
    } catch {
      throw FilePriceStore.Error(error, path: path)
    }
    do {
      let stored = try JSONDecoder().decode(StoredHistory.self, from: data)
      guard stored.currency == currency.code else { return nil }
      return try stored.series(currency: currency, knownSources: knownSources)
    } catch {
      throw FilePriceStore.Error.corrupt(path: path, reason: DecodingProblem.describe(error))
    }
  }

  public func save(_ series: CandleSeries, for range: ChartRange) throws {
    do {
      try file(range).replaceContents(with: StoredHistory(series).encode())
    } catch {
      throw FilePriceStore.Error(error, path: fileURL(for: range).path)
    }
  }

  /// Deletes the temporary files of writers killed mid-write, as the price cache does.
  public func removeAbandonedTemporaryFiles(olderThan age: TimeInterval = 60, now: Date) {
    for range in ChartRange.allCases {
      file(range).removeAbandonedTemporaryFiles(olderThan: age, now: now)
    }
  }

  private func file(_ range: ChartRange) -> AtomicFile {
    AtomicFile(url: fileURL(for: range), maxSize: Self.maxFileSize)
  }
}

/// The file's shape. Private to persistence so the format can evolve without touching Core.
private struct StoredHistory: Codable {
  var version: Int
  var currency: String
  var source: String
  /// Seconds.
  var period: Int64
  var fetchedAt: String
  /// `[start, open, high, low, close]`, each as text.
  var candles: [[String]]

  struct Invalid: Error, CustomStringConvertible {
    let description: String
  }

  init(_ series: CandleSeries) {
    version = 1
    currency = series.currency.code
    source = series.source.id
    period = series.period.components.seconds
    fetchedAt = ISO8601Timestamp.formatWithMilliseconds(series.fetchedAt)
    candles = series.candles.map { candle in
      [
        String(Int64(candle.start.timeIntervalSince1970.rounded(.down))),
        "\(candle.open)", "\(candle.high)", "\(candle.low)", "\(candle.close)",
      ]
    }
  }

  func encode() -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    // Strings and integers: encoding cannot fail.
    return (try? encoder.encode(self)) ?? Data()
  }

  func series(currency: Currency, knownSources: [PriceSource]) throws -> CandleSeries {
    guard version == 1 else { throw Invalid(description: "unknown version \(version)") }
    guard (60...(7 * 86_400)).contains(period) else {
      throw Invalid(description: "period \(period) is not one of a chart")
    }
    guard let fetched = ISO8601Timestamp.parse(fetchedAt) else {
      throw Invalid(description: "fetchedAt \"\(fetchedAt.prefix(40))\" is not ISO 8601")
    }
    guard !source.isEmpty, source.count <= 40 else { throw Invalid(description: "bad source") }
    let parsed = try candles.map { fields in
      guard fields.count == 5, let start = Int64(fields[0]), start >= 0 else {
        throw Invalid(description: "a candle is not [start, open, high, low, close]")
      }
      // The same strict parser the exchanges' prices go through: "1.2.3" is not a price.
      let prices = fields.dropFirst().compactMap { ExactDecimal.parse($0, grammar: .plain) }
      guard prices.count == 4 else {
        throw Invalid(description: "a candle at \(start) has a price that is not a decimal")
      }
      return try Candle(
        start: Date(timeIntervalSince1970: TimeInterval(start)), open: prices[0],
        high: prices[1], low: prices[2], close: prices[3])
    }
    return try CandleSeries(
      currency: currency, period: .seconds(period), candles: parsed,
      source: .named(source, among: knownSources), fetchedAt: fetched)
  }
}
