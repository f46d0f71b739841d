import BTCPriceCore
import BTCPriceFeature
import BTCPriceNIO
import BTCPricePersistence
import BTCPriceSources
import BTCPriceTerminal
import BTCPriceTestSupport
import Foundation
import Testing

/// The price history over real HTTP on 127.0.0.1: the SwiftNIO client, a fake exchange, the
/// candles' mapper and chain, the history's file and one chart printed, as `btc-price chart` will.
@Suite("Print a chart over real HTTP", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
final class PrintAChartOverRealHTTPIntegrationTests {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("PrintAChartOverRealHTTP-\(UUID().uuidString)")
  /// 2026-11-22 14:00 UTC.
  static let now: TimeInterval = 1_795_356_000

  deinit {
    try? FileManager.default.removeItem(at: folder)
  }

  @Test func krakensWholeAnswer_passesTheCandlesLimitAndIsDrawnThenKept() async throws {
    try await withClientAndServer { client, server in
      // Kraken's most: 720 candles of 5 minutes, over 64 KiB (a price answer's limit).
      let body = Self.krakenAnswer(candles: 720)
      #expect(body.utf8.count > 64 * 1024)
      await server.stub(.kraken, FakeResponse(json: body))

      let first = try await printChart(client: client, server: server)
      await server.stub(.kraken, FakeResponse(status: 503, json: "{}"))
      let second = try await printChart(client: client, server: server)

      #expect(first.status == 0)
      #expect(first.warnings.isEmpty)
      #expect(first.lines.first == "BTC/USD, last 24 hours · Kraken")
      // The last candle (719) is at 68,219.1; a day before, candle 432 opened at 68,432.1.
      #expect(first.lines.last == "▼ -$213.00 (-0.31%) in 24 hours")
      // Kept, and young enough for the second run not to ask again.
      #expect(second.status == 0)
      #expect(second.lines == first.lines)
      #expect(await server.requests(to: .kraken).count == 1)
      let query = try #require(await server.requests(to: .kraken).first?.query)
      #expect(query == "pair=XBTUSD&interval=5&since=1795269000")
    }
  }

  private func printChart(client: NIOHTTPClient, server: FakeExchangeServer) async throws
    -> (status: Int32, lines: [String], warnings: [String])
  {
    let now: @Sendable () -> Date = { Date(timeIntervalSince1970: Self.now) }
    let history = CandleHistory(
      currency: .usd,
      store: FileCandleStore(folder: folder, knownSources: PriceSourceRegistry.sources),
      load: CandleHistory.RemoteChain(
        [PriceSourceDefinition.kraken.candles!], currency: .usd,
        urls: ["kraken": server.url(for: .kraken)], client: client,
        clock: ContinuousClock(), now: now
      ).load,
      clock: ContinuousClock(), now: now)
    var lines: [String] = []
    var warnings: [String] = []
    let status = try await ChartPrinter.run(
      .day, history: history, presenter: ChartPresenter(timestamps: .utc(precision: .minutes)),
      current: nil, width: 60, height: 8, glyphs: .ascii, colors: false, now: now,
      write: { lines.append($0) }, warn: { warnings.append($0) })
    return (status, lines, warnings)
  }

  /// Kraken's OHLC for XBTUSD: `count` candles of 5 minutes, the last starting at 13:55, each
  /// flat at 68,000.1 + (its index % 500), written as Kraken writes them (5 decimals).
  static func krakenAnswer(candles count: Int) -> String {
    let first = Int(now) - 300 * count
    let rows = (0..<count).map { index in
      let price = "\(68_000 + index % 500).10000"
      return "[\(first + 300 * index),\"\(price)\",\"\(price)\",\"\(price)\",\"\(price)\","
        + "\"\(price)\",\"18.75430110\",162]"
    }
    return #"{"error":[],"result":{"XXBTZUSD":["# + rows.joined(separator: ",")
      + #"],"last":\#(Int(now) - 300)}}"#
  }
}
