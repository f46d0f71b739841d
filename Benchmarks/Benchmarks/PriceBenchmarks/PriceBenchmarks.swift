import BTCPriceCore
import BTCPriceFeature
import BTCPriceNIO
import BTCPricePersistence
import BTCPriceSources
import BTCPriceTerminal
import BTCPriceTestSupport
import Benchmark
import Foundation
import NIOConcurrencyHelpers

// Wall clock, CPU time and allocations for the per-tick work, from the mappers up to one whole
// tick over real HTTP on loopback. Results are reported as percentiles (p50, p99, ...).
let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
    maxDuration: .seconds(3),
    maxIterations: 100_000)

  let binance = BTCHTTPResponse(
    status: 200, body: Data(#"{"symbol":"BTCUSDT","price":"114721.34000000"}"#.utf8))
  Benchmark("Binance mapper: decode a ticker payload") { benchmark in
    for _ in benchmark.scaledIterations {
      blackHole(try PriceSourceDefinition.binance.map(binance))
    }
  }

  let cryptoCompare = BTCHTTPResponse(
    status: 200,
    body: Data(
      """
      {"RAW":{"MARKET":"CUSTOMAGG","FROMSYMBOL":"BTC","TOSYMBOL":"USD","FLAGS":"2","PRICE":68910.12,\
      "LASTUPDATE":1763800000,"LASTVOLUME":0.0012,"VOLUME24HOUR":9312.53,"OPEN24HOUR":68001.5,\
      "HIGH24HOUR":69010.2,"LOW24HOUR":67880.1,"CHANGE24HOUR":908.62,"CHANGEPCT24HOUR":1.336},\
      "DISPLAY":{"FROMSYMBOL":"Ƀ","TOSYMBOL":"$","PRICE":"$ 68,910.1","LASTUPDATE":"Just now"}}
      """.utf8))
  Benchmark("CryptoCompare mapper: decode a generateAvg payload") { benchmark in
    for _ in benchmark.scaledIterations {
      blackHole(try PriceSourceDefinition.cryptoCompare.map(cryptoCompare))
    }
  }

  let presenter = PricePresenter(timestamps: TimestampFormatter(precision: .seconds))
  let quote = PriceQuote(
    value: Decimal(string: "68901.23")!, timestamp: Date(timeIntervalSince1970: 1_795_356_185),
    source: .binance)
  Benchmark("Presenter: format price and timestamp into a line") { benchmark in
    for _ in benchmark.scaledIterations {
      blackHole(PlainLineRenderer.render(presenter.present(.fresh(quote))))
    }
  }

  Benchmark(
    "Whole tick: SwiftNIO client → fake exchange → mapper → presenter → cache write",
    configuration: .init(maxDuration: .seconds(5), maxIterations: 2_000)
  ) { (benchmark: Benchmark, tick: WholeTick) async in
    for _ in benchmark.scaledIterations {
      blackHole(await tick.run())
    }
  } setup: {
    let tick = try await WholeTick.start()
    WholeTick.running.withLockedValue { $0 = tick }
    return tick
  } teardown: {
    await WholeTick.running.withLockedValue { $0 }?.stop()
  }
}

/// The real pipeline the CLI composes, against a fake exchange on 127.0.0.1.
final class WholeTick: Sendable {
  /// The instance set up for the run, for the teardown hook (which takes no argument).
  static let running = NIOLockedValueBox<WholeTick?>(nil)

  let server: FakeExchangeServer
  let client: NIOHTTPClient
  let feed: PriceFeed
  let presenter = PricePresenter(timestamps: TimestampFormatter(precision: .seconds))
  let folder: URL

  private init(server: FakeExchangeServer, client: NIOHTTPClient, folder: URL) {
    self.server = server
    self.client = client
    self.folder = folder
    let chain = PriceSourceChain(
      [
        .init(
          source: .binance,
          loader: RemotePriceLoader(
            client: client, definition: .binance, currency: .usd, url: server.url(for: .binance),
            now: { Date() }),
          timeout: .milliseconds(800))
      ],
      clock: ContinuousClock())
    feed = PriceFeed(
      chain: chain,
      cache: PriceCache(
        store: FilePriceStore(
          fileURL: folder.appendingPathComponent("last-price.json"),
          knownSources: PriceSourceRegistry.sources),
        clock: ContinuousClock()))
  }

  static func start() async throws -> WholeTick {
    let server = try await FakeExchangeServer.start()
    await server.stub(.binance, .binance(price: "68901.23"))
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "btc-price-bench-\(UUID().uuidString)")
    return WholeTick(server: server, client: NIOHTTPClient(), folder: folder)
  }

  func run() async -> String {
    guard let update = try? await feed.update(within: .seconds(1)) else { return "" }
    return PlainLineRenderer.render(presenter.present(update))
  }

  func stop() async {
    await client.shutdown()
    await server.stop()
    try? FileManager.default.removeItem(at: folder)
  }
}
