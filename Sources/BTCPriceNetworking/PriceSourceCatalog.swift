import BTCPriceCore
import Foundation

/// Every price source this build can ask, with its real endpoint and pure mapper.
public enum PriceSourceCatalog {
  public struct Entry: Sendable {
    public let source: PriceSource
    public let defaultURL: URL
    /// Whether the source uses an API key (only CryptoCompare).
    public let takesAPIKey: Bool
    let request: @Sendable (URL, _ apiKey: String?) -> HTTPRequest
    let map: RemotePriceLoader.Mapper

    public static let binance = Entry(
      source: .binance, defaultURL: BinanceEndpoint.defaultURL, takesAPIKey: false,
      request: { url, _ in BinanceEndpoint.request(url: url) }, map: BinancePriceMapper.map)
    public static let cryptoCompare = Entry(
      source: .cryptoCompare, defaultURL: CryptoCompareEndpoint.defaultURL, takesAPIKey: true,
      request: { url, key in CryptoCompareEndpoint.request(url: url, apiKey: key) },
      map: CryptoCompareMapper.map)
    public static let coinbase = Entry(
      source: .coinbase, defaultURL: CoinbaseEndpoint.defaultURL, takesAPIKey: false,
      request: { url, _ in CoinbaseEndpoint.request(url: url) }, map: CoinbaseMapper.map)
    public static let kraken = Entry(
      source: .kraken, defaultURL: KrakenEndpoint.defaultURL, takesAPIKey: false,
      request: { url, _ in KrakenEndpoint.request(url: url) }, map: KrakenMapper.map)
    public static let bitstamp = Entry(
      source: .bitstamp, defaultURL: BitstampEndpoint.defaultURL, takesAPIKey: false,
      request: { url, _ in BitstampEndpoint.request(url: url) }, map: BitstampMapper.map)
  }

  /// The default chain, in order: the specified primary and fallback first, then the keyless
  /// sources that keep the price flowing when those two refuse us.
  public static let all: [Entry] = [.binance, .cryptoCompare, .coinbase, .kraken, .bitstamp]

  public static func entry(id: String) -> Entry? {
    all.first { $0.source.id == id.lowercased() }
  }
}

extension PriceSourceChain {
  /// A chain of remote sources over one HTTP client, asked in the given order. The first source
  /// gets `primaryTimeout`; each next one gets what is left of the tick.
  ///
  /// - Parameters:
  ///   - urls: overrides by source id; the others use their real endpoint.
  ///   - apiKey: sent only to sources that take a key.
  public static func remote(
    _ entries: [PriceSourceCatalog.Entry] = PriceSourceCatalog.all,
    urls: [String: URL] = [:],
    apiKey: String? = nil,
    client: any HTTPClient,
    primaryTimeout: Duration,
    clock: any Clock<Duration>,
    now: @escaping @Sendable () -> Date,
    onEvent: @escaping @Sendable (PriceSourceEvent) -> Void = { _ in }
  ) -> PriceSourceChain {
    let links = entries.enumerated().map { index, entry in
      PriceSourceChain.Link(
        source: entry.source,
        loader: RemotePriceLoader(
          client: client, entry: entry, url: urls[entry.source.id],
          apiKey: entry.takesAPIKey ? apiKey : nil, now: now),
        timeout: index == 0 ? primaryTimeout : nil)
    }
    return PriceSourceChain(links, clock: clock, onEvent: onEvent)
  }
}
