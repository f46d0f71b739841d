import BTCPriceCore
import BTCPriceFeature
import BTCPriceNetworking
import BTCPricePersistence
import Foundation
import os

/// The composition root of the iPhone app: the only place that knows the concrete types. It wires
/// the same chain as the terminal's, over URLSession instead of AsyncHTTPClient.
@MainActor
enum AppComposition {
  static func makePriceViewModel() -> PriceViewModel {
    let client = URLSessionHTTPClient()
    let clock = ContinuousClock()
    let now: @Sendable () -> Date = { Date() }
    let chain = PriceSourceChain(
      [
        .init(
          source: .binance, loader: RemotePriceLoader.binance(client: client, now: now),
          timeout: .milliseconds(800)),
        // Without a key CryptoCompare answers 401; a key would come from the Keychain, never from
        // the bundle.
        .init(
          source: .cryptoCompare,
          loader: RemotePriceLoader.cryptoCompare(client: client, apiKey: nil, now: now)),
      ],
      clock: clock)
    let log = Logger(subsystem: "btc-price", category: "cache")
    let store = (try? FilePriceStore.applicationSupportFileURL()).map {
      FilePriceStore(fileURL: $0)
    }
    let feed = PriceFeed(chain: chain, store: store) { warning in
      switch warning {
      case .cacheUnreadable(let reason), .cacheNotSaved(let reason):
        log.warning("\(reason, privacy: .public)")
      }
    }
    return PriceViewModel(feed: feed, clock: clock)
  }
}
