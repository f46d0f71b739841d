import BTCPriceCore
import BTCPricePipeline
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// `PricePipeline`: the one wiring of the chain, the feed and the cache that the command line,
/// `serve` and the app share, and the chain a currency and a source list make.
@Suite("Compose the pipeline every front end shares", .hangLimit(.seconds(30)))
struct ComposeThePipelineUseCaseTests {
  @Test func configuration_asksEverySourceThatServesTheCurrency_byDefault() {
    #expect(
      PricePipeline.Configuration(currency: .gbp, primaryTimeout: .seconds(1)).sources
        .map(\.source.id) == PriceSourceRegistry.serving(.gbp).map(\.source.id))
  }

  @Test func limitTargets_nameTheEndpointAskedAndWhetherAKeyGoesWithIt() {
    let sut = PricePipeline.Configuration(
      sources: [.binance, .cryptoCompare],
      urls: ["binance": URL(string: "https://api.binance.us/api/v3/ticker/price?symbol=BTCUSDT")!],
      apiKeys: ["cryptocompare": "k"], primaryTimeout: .seconds(1))

    #expect(
      sut.limitTargets == [
        "binance": SourceLimits.Target(endpoint: "https://api.binance.us", apiKeyGiven: false),
        "cryptocompare": SourceLimits.Target(
          endpoint: "https://min-api.cryptocompare.com", apiKeyGiven: true),
      ])
  }

  @Test func chain_withoutAList_isEverySourceThatServesTheCurrency_andLeavesTheRestOut() throws {
    let (chain, leftOut) = try PriceSourceRegistry.chain(ids: nil, for: .jpy)

    #expect(chain.map(\.source.id) == PriceSourceRegistry.serving(.jpy).map(\.source.id))
    #expect(
      Set((chain + leftOut).map(\.source.id)) == Set(PriceSourceRegistry.all.map(\.source.id)))
    #expect(leftOut.allSatisfy { $0.markets[.jpy] == nil })
  }

  @Test func chain_aGivenList_keepsItsOrderAndLeavesNothingOut() throws {
    let (chain, leftOut) = try PriceSourceRegistry.chain(ids: ["kraken", "coinbase"], for: .chf)

    #expect(chain.map(\.source.id) == ["kraken", "coinbase"])
    #expect(leftOut.isEmpty)
  }

  @Test func chain_aGivenListNamingASourceWithoutThePair_isRefusedNamingThoseThatServeIt() {
    let serving = PriceSourceRegistry.serving(.jpy).map(\.source.id).joined(separator: ", ")

    #expect(
      throws: PriceSourceRegistry.NotServed(
        description: "bitstamp has no BTC/JPY market; sources for JPY: \(serving).")
    ) {
      try PriceSourceRegistry.chain(ids: ["coinbase", "bitstamp"], for: .jpy)
    }
  }

  @Test func feedWarnings_inWords() {
    #expect(PriceFeedWarning.cacheUnreadable("not JSON").text == "not JSON")
    #expect(
      PriceFeedWarning.cacheNotSaved("disk full").text
        == "disk full (will keep running without saving)")
  }
}
