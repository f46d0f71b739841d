import BTCPriceCore
import BTCPriceFeature
import BTCPriceNetworking
import BTCPricePersistence
import BTCPriceURLSession
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
    // The terminal's default chain: Binance, CryptoCompare (skipped for an hour after its 401
    // while the app has no key; a key would come from the Keychain, never from the bundle), then
    // the keyless Coinbase, Kraken and Bitstamp.
    let chain = PriceSourceChain.remote(
      client: client, primaryTimeout: .milliseconds(800), clock: clock, now: now)
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
