import BTCPriceCore
import Foundation
import Testing

/// The ``PriceStore`` contract as checks that every store implementation's tests run.
///
/// Each check takes a fresh, empty store; the implementation-specific ones also take the action
/// that puts that store's backing into the state under test.
public enum PriceStoreSpecs {
  public static let sample = PriceQuote(
    value: Decimal(string: "68901.23")!, timestamp: Date(timeIntervalSince1970: 1_795_356_185.25),
    source: .binance)
  public static let newer = PriceQuote(
    value: Decimal(string: "114721.34000001")!,
    timestamp: Date(timeIntervalSince1970: 1_795_356_186.5), source: .cryptoCompare)

  public static func loadDeliversNothingWhenEmpty(
    _ sut: some PriceStore, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    #expect(try sut.load() == nil, sourceLocation: sourceLocation)
    #expect(
      try sut.load() == nil, "loading twice has no side effects", sourceLocation: sourceLocation)
  }

  public static func loadDeliversSavedQuoteExactly(
    _ sut: some PriceStore, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try sut.save(sample)

    #expect(try sut.load() == sample, sourceLocation: sourceLocation)
  }

  public static func saveReplacesPreviousQuote(
    _ sut: some PriceStore, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try sut.save(sample)
    try sut.save(newer)

    #expect(try sut.load() == newer, sourceLocation: sourceLocation)
  }

  public static func loadThrowsOnCorruptData(
    _ sut: some PriceStore, corrupt: () throws -> Void,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try corrupt()

    #expect(throws: (any Error).self, sourceLocation: sourceLocation) { try sut.load() }
  }

  public static func saveThrowsAndKeepsPreviousQuoteWhenWritingFails(
    _ sut: some PriceStore, breakWriting: () throws -> Void, restoreWriting: () throws -> Void,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try sut.save(sample)
    try breakWriting()

    #expect(throws: (any Error).self, sourceLocation: sourceLocation) { try sut.save(newer) }
    try restoreWriting()
    #expect(try sut.load() == sample, sourceLocation: sourceLocation)
  }
}
