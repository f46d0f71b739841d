import BTCPriceCore
import Foundation

/// The ``SourceLimitStore`` contract (``StoreContractSpecs``) with its samples, for every
/// implementation's tests: a Retry-After is kept as its `until`, so the samples carry none.
public enum SourceLimitStoreSpecs {
  public static let sample: [SourceLimit] = [
    SourceLimit(
      source: "binance", endpoint: "https://api.binance.com",
      until: Date(timeIntervalSince1970: 1_795_356_785.25),
      cause: .rateLimited(status: 418, retryAfter: nil, message: "banned"), apiKeyGiven: false),
    SourceLimit(
      source: "cryptocompare", endpoint: "https://min-api.cryptocompare.com",
      until: Date(timeIntervalSince1970: 1_795_360_000),
      cause: .refused("You need a valid auth key"), apiKeyGiven: true),
  ]
  public static let newer: [SourceLimit] = [
    SourceLimit(
      source: "kraken", endpoint: "wss://ws.kraken.com",
      until: Date(timeIntervalSince1970: 1_795_356_900), cause: .httpStatus(451, message: nil),
      apiKeyGiven: false)
  ]

  public static func contract(_ sut: some SourceLimitStore) -> StoreContractSpecs<[SourceLimit]> {
    StoreContractSpecs(load: sut.load, save: sut.save, empty: [], sample: sample, newer: newer)
  }
}
