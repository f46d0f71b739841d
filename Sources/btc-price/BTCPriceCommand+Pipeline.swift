import ArgumentParser
import BTCPriceNetworking
import BTCPricePersistence
import Foundation

/// What the pipeline options and the environment name: the chain, the endpoint overrides, the
/// CryptoCompare key and the cache. Shared by the terminal (`run()`) and `btc-price serve`.
struct ResolvedPipeline {
  let sources: [PriceSourceCatalog.Entry]
  /// Endpoint overrides by source id.
  let urls: [String: URL]
  let apiKey: String?
  let store: FilePriceStore?
}

extension BTCPriceCommand {
  func resolvePipeline(environment: [String: String]) throws -> ResolvedPipeline {
    let entries = try Self.entries(sources ?? environment["BTC_PRICE_SOURCES"])
    let options: [String: String?] = [
      "binance": binanceURL, "cryptocompare": cryptoCompareURL, "coinbase": coinbaseURL,
      "kraken": krakenURL, "bitstamp": bitstampURL,
    ]
    var urls: [String: URL] = [:]
    for entry in PriceSourceCatalog.all {
      let id = entry.source.id
      let text = (options[id] ?? nil) ?? environment["BTC_PRICE_\(id.uppercased())_URL"]
      urls[id] = try Self.url(text, option: "--\(id)-url")
    }
    let store: FilePriceStore? =
      noCache
      ? nil
      : FilePriceStore(
        fileURL: cachePath.map { URL(fileURLWithPath: $0) }
          ?? FilePriceStore.defaultFileURL(environment: environment))
    return ResolvedPipeline(
      sources: entries, urls: urls,
      apiKey: environment["CRYPTOCOMPARE_API_KEY"].flatMap { $0.isEmpty ? nil : $0 },
      store: store)
  }
}
