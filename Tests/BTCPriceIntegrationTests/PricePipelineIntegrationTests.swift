import BTCPriceCore
import BTCPriceFeature
import BTCPriceNIO
import BTCPricePersistence
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// The whole pipeline over real HTTP on 127.0.0.1: the SwiftNIO client → fake exchange → mappers →
/// source chain with real-time deadlines → presenter, with the cache in a real file.
extension RealTimePipelineTests {
  @Suite("Price pipeline over real HTTP", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
  final class PricePipelineIntegrationTests {
    let cacheURL = FileManager.default.temporaryDirectory
      .appendingPathComponent("PricePipelineIntegrationTests-\(UUID().uuidString)/last-price.json")
    let now = Date(timeIntervalSince1970: 1_795_356_185)
    let presenter = PricePresenter(
      timestamps: TimestampFormatter(precision: .minutes, timeZone: TimeZone(identifier: "UTC")!))

    deinit {
      try? FileManager.default.removeItem(at: cacheURL.deletingLastPathComponent())
    }

    @Test func binance200_showsItsPriceAndTheCurrentTimeAndUpdatesTheCache() async throws {
      try await withPipeline { feed, server in
        await server.stub(.binance, .binance(price: "68901.23"))

        let state = presenter.present(try await feed.update(within: .seconds(1)))

        #expect(state.priceText == "$68,901.23")
        #expect(state.timestampText == "Nov 22, 14:03")
        #expect(state.bannerText == nil)
        #expect(
          try FilePriceStore(fileURL: cacheURL, knownSources: PriceSourceRegistry.sources).load()?
            .value == Decimal(string: "68901.23"))
      }
    }

    @Test func primaryTimesOut_fallback200_showsFallbackPriceWithoutError() async throws {
      try await withPipeline { feed, server in
        await server.stub(.binance, .binance(price: "1.00", delay: .seconds(3)))
        await server.stub(.cryptoCompare, .cryptoCompare(price: "68890.00"))
        let started = ContinuousClock.now

        let state = presenter.present(try await feed.update(within: .seconds(1)))

        let elapsed = ContinuousClock.now - started
        #expect(state.priceText == "$68,890.00")
        #expect(state.bannerText == nil)
        #expect(state.sourceName == "CryptoCompare")
        #expect(elapsed >= .milliseconds(800) && elapsed < .milliseconds(1000), "took \(elapsed)")
        #expect(await server.requests(to: .cryptoCompare).count == 1)
      }
    }

    @Test func primaryAnsweringWellBeforeItsDeadline_winsAndFallbackIsNeverAsked() async throws {
      try await withPipeline { feed, server in
        // 200 ms of its 800: the other 600 ms absorb a loaded CI machine (500 ms once missed there).
        await server.stub(.binance, .binance(price: "68901.23", delay: .milliseconds(200)))
        await server.stub(.cryptoCompare, .cryptoCompare(price: "1"))

        let state = presenter.present(try await feed.update(within: .seconds(1)))

        #expect(state.priceText == "$68,901.23")
        #expect(await server.requests(to: .cryptoCompare).isEmpty)
      }
    }

    @Test func bothFail_showsCachedValueWithBanner() async throws {
      try FilePriceStore(fileURL: cacheURL, knownSources: PriceSourceRegistry.sources).save(
        PriceStoreSpecs.sample)
      try await withPipeline { feed, server in
        await server.stub(.binance, FakeResponse(status: 500, json: "{}"))
        await server.stub(.cryptoCompare, .cryptoCompareKeyRequired)
        await feed.restore()

        let state = presenter.present(try await feed.update(within: .seconds(1)))

        #expect(state.priceText == "$68,901.23")
        #expect(
          state.bannerText
            == "Failed to update value. Displaying last updated value from Nov 22, 14:03")
        #expect(
          state.failureReason
            == "binance: HTTP 500; cryptocompare: HTTP 401: API key required for this endpoint.")
      }
    }

    @Test func invalidBinanceData_fallsBackToCryptoCompareExactPrice() async throws {
      try await withPipeline { feed, server in
        await server.stub(.binance, FakeResponse(json: #"{"symbol":"BTCUSDT","price":"abc"}"#))
        await server.stub(.cryptoCompare, .cryptoCompare(price: "68910.12"))

        let update = try await feed.update(within: .seconds(1))

        #expect(
          update
            == .fresh(
              PriceQuote(
                value: Decimal(string: "68910.12")!, timestamp: now, source: .cryptoCompare))
        )
      }
    }

    private func withPipeline(_ body: (PriceFeed, FakeExchangeServer) async throws -> Void)
      async throws
    {
      try await withClientAndServer { client, server in
        let now = self.now
        let chain = PriceSourceChain(
          [
            .init(
              source: .binance,
              loader: RemotePriceLoader(
                client: client, definition: .binance, currency: .usd,
                url: server.url(for: .binance), now: { now }),
              timeout: .milliseconds(800)),
            .init(
              source: .cryptoCompare,
              loader: RemotePriceLoader(
                client: client, definition: .cryptoCompare, currency: .usd,
                url: server.url(for: .cryptoCompare),
                now: { now })),
          ],
          clock: ContinuousClock())
        try await body(
          PriceFeed(
            chain: chain,
            cache: PriceCache(
              store: FilePriceStore(fileURL: cacheURL, knownSources: PriceSourceRegistry.sources),
              clock: ContinuousClock())),
          server)
      }
    }
  }
}
