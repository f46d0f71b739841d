import BTCPriceCore
import Foundation
import Testing

/// The ``CandleStore`` contract (``StoreContractSpecs``, for each range) with its samples, and what
/// a store of several ranges adds to it: the ranges are kept apart. For every store
/// implementation's tests; each check takes a fresh, empty store in USD.
public enum CandleStoreSpecs {
  /// Two 5-minute candles, prices with every kind of digits an exchange sends.
  public static let day = try! CandleSeries(
    currency: .usd, period: .seconds(300),
    candles: [
      try! Candle(
        start: Date(timeIntervalSince1970: 1_795_356_000), open: Decimal(string: "68901.23")!,
        high: Decimal(string: "68950")!, low: Decimal(string: "68880.5")!,
        close: Decimal(string: "68940.00000001")!),
      try! Candle(
        start: Date(timeIntervalSince1970: 1_795_356_300), open: Decimal(string: "68940")!,
        high: Decimal(string: "68990.1")!, low: Decimal(string: "68930")!,
        close: Decimal(string: "68985.99")!),
    ],
    source: .binance, fetchedAt: Date(timeIntervalSince1970: 1_795_356_420.25))

  /// A week's history from another exchange, fetched later.
  public static let week = try! CandleSeries(
    currency: .usd, period: .seconds(3_600),
    candles: [
      try! Candle(
        start: Date(timeIntervalSince1970: 1_795_352_400), open: Decimal(string: "68000")!,
        high: Decimal(string: "69000")!, low: Decimal(string: "67900")!,
        close: Decimal(string: "68900")!)
    ],
    source: .coinbase, fetchedAt: Date(timeIntervalSince1970: 1_795_356_500.5))

  /// The contract for the history of `range`.
  public static func contract(_ sut: some CandleStore, range: ChartRange = .day)
    -> StoreContractSpecs<CandleSeries?>
  {
    StoreContractSpecs(
      load: { try sut.load(range) }, save: { try sut.save($0!, for: range) }, empty: nil,
      sample: day, newer: week)
  }

  /// A range's history replaces only that range's.
  public static func saveKeepsTheRangesApart(
    _ sut: some CandleStore, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try sut.save(day, for: .day)
    try sut.save(week, for: .week)
    try sut.save(week, for: .day)

    #expect(try sut.load(.day) == week, sourceLocation: sourceLocation)
    #expect(try sut.load(.week) == week, sourceLocation: sourceLocation)
    #expect(try sut.load(.month) == nil, sourceLocation: sourceLocation)
  }
}
