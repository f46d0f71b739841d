/// Names a price source. An open set, so new sources need no change to Core.
public struct PriceSource: Hashable, Sendable, CustomStringConvertible {
  /// Stable machine name, used in `--json`, the cache file and `--sources`.
  public let id: String
  /// Human-readable name for UIs.
  public let displayName: String

  public init(id: String, displayName: String) {
    self.id = id
    self.displayName = displayName
  }

  public var description: String { id }

  public static let binance = PriceSource(id: "binance", displayName: "Binance")
  public static let cryptoCompare = PriceSource(id: "cryptocompare", displayName: "CryptoCompare")
  public static let coinbase = PriceSource(id: "coinbase", displayName: "Coinbase")
  public static let kraken = PriceSource(id: "kraken", displayName: "Kraken")
  public static let bitstamp = PriceSource(id: "bitstamp", displayName: "Bitstamp")

  /// The sources this build knows by name, for decoding a cached quote.
  public static let known: [PriceSource] = [
    .binance, .cryptoCompare, .coinbase, .kraken, .bitstamp,
  ]

  /// The known source with this id, or an ad-hoc one named after the id.
  public static func named(_ id: String) -> PriceSource {
    known.first { $0.id == id } ?? PriceSource(id: id, displayName: id)
  }
}
