import BTCPriceCore
import Foundation
import Testing

/// The ``CandleStore`` contract as checks that every store implementation's tests run, as
/// ``PriceStoreSpecs`` is for prices.
///
/// Each check takes a fresh, empty store in USD; the implementation-specific ones also take the
/// action that puts that store's backing into the state under test.
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

  public static func loadDeliversNothingWhenEmpty(
    _ sut: some CandleStore, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    for range in ChartRange.allCases {
      #expect(try sut.load(range) == nil, sourceLocation: sourceLocation)
    }
  }

  public static func loadDeliversSavedHistoryExactly(
    _ sut: some CandleStore, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try sut.save(day, for: .day)

    #expect(try sut.load(.day) == day, sourceLocation: sourceLocation)
  }

  public static func saveReplacesPreviousHistoryOfTheRangeOnly(
    _ sut: some CandleStore, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try sut.save(day, for: .day)
    try sut.save(week, for: .week)
    try sut.save(week, for: .day)

    #expect(try sut.load(.day) == week, sourceLocation: sourceLocation)
    #expect(try sut.load(.week) == week, sourceLocation: sourceLocation)
    #expect(try sut.load(.month) == nil, sourceLocation: sourceLocation)
  }

  public static func loadThrowsOnCorruptData(
    _ sut: some CandleStore, corrupt: () throws -> Void,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try corrupt()

    #expect(throws: (any Error).self, sourceLocation: sourceLocation) { try sut.load(.day) }
  }

  public static func saveThrowsAndKeepsPreviousHistoryWhenWritingFails(
    _ sut: some CandleStore, breakWriting: () throws -> Void, restoreWriting: () throws -> Void,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try sut.save(day, for: .day)
    try breakWriting()

    #expect(throws: (any Error).self, sourceLocation: sourceLocation) {
      try sut.save(week, for: .day)
    }
    try restoreWriting()
    #expect(try sut.load(.day) == day, sourceLocation: sourceLocation)
  }
}
