import BTCPriceCore
import Foundation

/// The ``PriceStore`` contract (``StoreContractSpecs``) with its samples, for every store
/// implementation's tests.
public enum PriceStoreSpecs {
  public static let sample = PriceQuote(
    value: Decimal(string: "68901.23")!, timestamp: Date(timeIntervalSince1970: 1_795_356_185.25),
    source: .binance)
  public static let newer = PriceQuote(
    value: Decimal(string: "114721.34000001")!,
    timestamp: Date(timeIntervalSince1970: 1_795_356_186.5), source: .cryptoCompare)

  public static func contract(_ sut: some PriceStore) -> StoreContractSpecs<PriceQuote?> {
    StoreContractSpecs(
      load: sut.load, save: { try sut.save($0!) }, empty: nil, sample: sample, newer: newer)
  }
}
