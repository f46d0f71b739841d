import BTCPriceCore
import BTCPricePersistence
import BTCPriceSources
import BTCPriceTestSupport
import BTCPriceWidgetCore
import Foundation
import Testing

@testable import BTCPriceAppComposition

/// What the widget's timeline provider gets: the app's cache through the shared folder, and a
/// fresh price from the chain when one comes in time.
@Suite("Show the price in the widget", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct ShowThePriceInTheWidgetUseCaseTests {
  /// 2026-11-22 14:03:05 UTC
  let now = Date(timeIntervalSince1970: 1_795_356_185)

  /// WidgetKit builds a provider, and so a composition, each time it asks for the widget's
  /// configuration: a URLSession each, never invalidated, leaked in the widget's process.
  @Test func liveCompositions_shareOneHTTPClient() {
    let first = WidgetComposition.live { _ in }
    let second = WidgetComposition.live { _ in }

    let clients = [first.client, second.client].map { ObjectIdentifier($0 as AnyObject) }
    #expect(clients[0] == clients[1])
  }

  @Test func reload_showsAFreshPriceAndSavesItForTheApp() async throws {
    try await withSharedFolder { folder in
      let sut = makeSUT(
        folder: folder,
        client: StubHTTPClient(status: 200, body: #"{"symbol":"BTCUSDT","price":"70123.45000000"}"#)
      )

      let timeline = await sut.loadTimeline()

      #expect(timeline.entries.first?.content.priceText == "$70,123.45")
      #expect(timeline.entries.first?.content.asOfText == "as of 14:03")
      #expect(timeline.reloadAfter == now.addingTimeInterval(15 * 60))
      let saved = try String(
        contentsOf: folder.appendingPathComponent("last-price.json"), encoding: .utf8)
      #expect(saved.contains(#""price":"70123.45""#))
    }
  }

  @Test func failedReload_showsTheAppsCachedPriceMarkedStale() async throws {
    try await withSharedFolder { folder in
      try Data(Self.cachedJSON.utf8).write(to: folder.appendingPathComponent("last-price.json"))
      let sut = makeSUT(folder: folder, client: StubHTTPClient(status: 500, body: "{}"))

      let timeline = await sut.loadTimeline()

      #expect(timeline.entries.count == 1)
      #expect(timeline.entries.first?.content.priceText == "$68,901.23")
      #expect(timeline.entries.first?.content.asOfText == "not updated since 14:03")
    }
  }

  @Test func snapshot_showsTheCachedPriceInTheChosenCurrencyWithoutAsking() async throws {
    try await withSharedFolder { folder in
      try Data(Self.cachedEURJSON.utf8).write(
        to: folder.appendingPathComponent("last-price-eur.json"))
      let client = StubHTTPClient(status: 200, body: "{}")
      let sut = makeSUT(folder: folder, client: client, currency: .eur)

      let entry = sut.snapshot()

      #expect(entry.content.priceText == "€63,250.10")
      #expect(client.requests.isEmpty)
    }
  }

  /// The widget asks no exchange for candles: its 24-hour change comes from the day the app
  /// keeps in the shared folder, in the chosen currency's file, and is left out without it.
  @Test func theDayTheAppKept_givesTheWidgetsChange_inTheChosenCurrencyOnly() async throws {
    try await withSharedFolder { folder in
      try Data(Self.cachedEURJSON.utf8).write(
        to: folder.appendingPathComponent("last-price-eur.json"))
      let client = StubHTTPClient(status: 500, body: "{}")
      let eur = makeSUT(folder: folder, client: client, currency: .eur)
      let usd = makeSUT(folder: folder, client: client, currency: .usd)
      #expect(eur.snapshot().content.change24hText == nil, "no day kept yet")

      // Where the app keeps it (AppComposition: beside the App Group's price file).
      try FileCandleStore(
        besidePriceFile: AppGroup.cacheFileURL(in: folder, currency: .eur),
        knownSources: PriceSourceRegistry.sources, currency: .eur
      ).save(.day(endingAt: 1_795_356_000, currency: .eur) { _ in "62000.00" }, for: .day)

      #expect(eur.snapshot().content.change24hText == "▲ +2.02% in 24h")
      let timeline = await eur.loadTimeline()
      #expect(timeline.entries.first?.content.change24hText == "▲ +2.02% in 24h")
      try Data(Self.cachedJSON.utf8).write(to: folder.appendingPathComponent("last-price.json"))
      #expect(usd.snapshot().content.change24hText == nil, "the euro day says nothing of USD")
    }
  }

  // MARK: - Helpers

  static let cachedJSON = """
    {"currency":"USD","price":"68901.23","source":"binance","timestamp":"2026-11-22T14:03:05.250Z","version":1}
    """
  static let cachedEURJSON = """
    {"currency":"EUR","price":"63250.10","source":"binance","timestamp":"2026-11-22T14:03:05.250Z","version":1}
    """

  private func makeSUT(folder: URL, client: StubHTTPClient, currency: Currency = .usd)
    -> WidgetComposition
  {
    let suite = "btc-price-widget-tests-\(UUID().uuidString)"
    let defaults = UserDefaults(suiteName: suite)!
    defaults.set(currency.code, forKey: "currency")
    let now = self.now
    return WidgetComposition(
      client: client, clock: ContinuousClock(), now: { now }, folder: folder,
      preference: CurrencyPreference(defaults: defaults, regionCurrencyCode: nil),
      timeZone: { TimeZone(identifier: "UTC")! }, log: { _ in })
  }

  private func withSharedFolder(_ body: (URL) async throws -> Void) async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("widget-composition-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try await body(folder)
  }
}

/// Answers every request with one status and body at once, and counts the requests.
