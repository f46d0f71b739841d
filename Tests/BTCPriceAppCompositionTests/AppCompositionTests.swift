import BTCPriceAppComposition
import BTCPriceCore
import BTCPriceFeature
import BTCPricePersistence
import BTCPriceRuntime
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// What the iPhone app wires, checked here because the app target itself (SwiftUI) cannot build
/// on Linux.
@Suite("Compose the iPhone app", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
@MainActor
struct AppCompositionTests {
  let clock = SteppedTestClock()
  /// 2026-11-22 14:03:05 UTC
  let now = Date(timeIntervalSince1970: 1_795_356_185)

  @Test func compose_removesTheTemporaryFilesOfAKilledWriter() async throws {
    try await withCacheFolder { cacheFile in
      let folder = cacheFile.deletingLastPathComponent()
      let abandoned = try makeFile(folder, ".last-price.json.4242.17.tmp", modified: -120)
      let inFlight = try makeFile(folder, ".last-price.json.4243.18.tmp", modified: -1)
      let cache = try makeFile(folder, "last-price.json", modified: -120)

      _ = makeSUT(cacheFileURL: cacheFile, client: AnsweringClient(body: nil))

      #expect(!exists(abandoned), "a writer killed two minutes ago left this behind")
      #expect(exists(inFlight), "a second old: a writer may still be busy with it")
      #expect(exists(cache))
    }
  }

  @Test func compose_showsTheCachedValueFromTheGivenFile() async throws {
    try await withCacheFolder { cacheFile in
      try Data(Self.cachedJSON.utf8).write(to: cacheFile)
      let sut = makeSUT(cacheFileURL: cacheFile, client: AnsweringClient(body: nil))

      let running = Task { await sut.run() }
      await waitOnMainActor(until: { sut.priceText == "$68,901.23" })

      #expect(sut.sourceName == "Binance")
      running.cancel()
      await running.value
    }
  }

  @Test func compose_savesAFreshPriceFromTheChainToTheGivenFile() async throws {
    try await withCacheFolder { cacheFile in
      let client = AnsweringClient(body: #"{"symbol":"BTCUSDT","price":"70123.45000000"}"#)
      let sut = makeSUT(cacheFileURL: cacheFile, client: client)

      let running = Task { await sut.run() }
      await waitOnMainActor(until: { sut.priceText == "$70,123.45" })
      running.cancel()
      await running.value

      let saved = String(decoding: try Data(contentsOf: cacheFile), as: UTF8.self)
      #expect(saved.contains(#""price":"70123.45""#))
      #expect(saved.contains(#""source":"binance""#))
    }
  }

  @Test func compose_sendsCacheWarningsToTheLog() async throws {
    try await withCacheFolder { cacheFile in
      try Data("not json".utf8).write(to: cacheFile)
      let log = Locked<[String]>([])
      let sut = makeSUT(
        cacheFileURL: cacheFile, client: AnsweringClient(body: nil), log: { log.append($0) })

      let running = Task { await sut.run() }
      await waitOnMainActor(until: { !log.value.isEmpty })
      running.cancel()
      await running.value

      #expect(log.value.count == 1)
      #expect(log.value.first?.hasPrefix("ignoring corrupt cache \(cacheFile.path)") == true)
    }
  }

  @Test func compose_respectsABanAnEarlierLaunchWasGiven() async throws {
    try await withCacheFolder { cacheFile in
      let limitsFile = cacheFile.deletingLastPathComponent().appendingPathComponent("limits.json")
      try FileSourceLimitStore(fileURL: limitsFile).save([
        SourceLimit(
          source: "binance", endpoint: "https://api.binance.com",
          until: now.addingTimeInterval(600),
          cause: .rateLimited(status: 418, retryAfter: nil, message: nil), apiKeyGiven: false)
      ])
      let client = StubHTTPClient(
        body: #"{"data":{"amount":"68880.55","base":"BTC","currency":"USD"}}"#)
      let now = self.now
      let sut = AppComposition.makePriceViewModel(
        client: client, clock: clock, now: { now }, cacheFileURL: cacheFile,
        limitsFileURL: limitsFile, log: { _ in })

      let running = Task { await sut.run() }
      await waitOnMainActor(until: { sut.sourceName == "Coinbase" })
      running.cancel()
      await running.value

      #expect(!client.hosts.contains("api.binance.com"))
      #expect(client.hosts.contains("api.coinbase.com"))
    }
  }

  @Test func compose_asksAndSavesInTheChosenCurrency() async throws {
    try await withCacheFolder { cacheFile in
      let client = StubHTTPClient(body: #"{"symbol":"BTCEUR","price":"63250.10000000"}"#)
      let now = self.now
      let sut = AppComposition.makePriceViewModel(
        client: client, clock: clock, now: { now }, cacheFileURL: cacheFile, currency: .eur,
        log: { _ in })

      let running = Task { await sut.run() }
      await waitOnMainActor(until: { sut.priceText == "€63,250.10" })
      running.cancel()
      await running.value

      #expect(sut.pairText == "BTC/EUR")
      let saved = String(decoding: try Data(contentsOf: cacheFile), as: UTF8.self)
      #expect(saved.contains(#""currency":"EUR""#))
    }
  }

  @Test func goingToTheBackground_holdsABackgroundTaskUntilTheSaveHasEnded() async throws {
    try await withCacheFolder { cacheFile in
      let events = Locked<[String]>([])
      let hooks = BackgroundTaskHooks(
        begin: { name, _ in
          events.append("begin \(name)")
          return 7
        },
        end: { identifier in
          let saved = FileManager.default.fileExists(atPath: cacheFile.path)
          events.append("end \(identifier), saved: \(saved)")
        })
      let client = AnsweringClient(body: #"{"symbol":"BTCUSDT","price":"70123.45000000"}"#)
      let now = self.now
      let sut = AppComposition.makePriceViewModel(
        client: client, clock: clock, now: { now }, cacheFileURL: cacheFile,
        backgroundTask: hooks, log: { _ in })
      let running = Task { await sut.run() }
      await waitOnMainActor(until: { sut.priceText == "$70,123.45" })

      sut.phaseDidChange(to: .background)

      await waitOnMainActor(until: { events.value.count == 2 })
      #expect(events.value == ["begin Save the last Bitcoin price", "end 7, saved: true"])
      running.cancel()
      await running.value
    }
  }

  @Test func compose_givesBinanceTheDefault800msBeforeAskingTheNextSource() async throws {
    try await withCacheFolder { cacheFile in
      let client = HangingPrimaryClient()
      let now = self.now
      let sut = AppComposition.makePriceViewModel(
        client: client, clock: clock, now: { now }, cacheFileURL: cacheFile, log: { _ in })

      let running = Task { await sut.run() }
      await clock.advance(to: .milliseconds(799), afterSleeps: 1)
      for _ in 0..<1_000 { await Task.yield() }
      #expect(client.hosts.value == ["api.binance.com"], "the next source was asked before 800 ms")

      await clock.advance(to: .milliseconds(800))
      await waitOnMainActor(
        until: { client.hosts.value.contains("min-api.cryptocompare.com") },
        "the next source was not asked at 800 ms", timeout: .seconds(3))
      running.cancel()
      await running.value
    }
  }

  // MARK: - Helpers

  static let cachedJSON = """
    {"currency":"USD","price":"68901.23","source":"binance","timestamp":"2026-11-22T14:03:05.250Z","version":1}
    """

  @Test func compose_withTheHistory_showsThe24HourChangeAndTheDaysChart_andKeepsTheDay()
    async throws
  {
    try await withCacheFolder { cacheFile in
      let klines = FakeResponse.binanceKlines(
        Array(repeating: "68000.00", count: 290), lastStart: 1_795_356_000
      ).body
      let client = KlinesAndPriceClient(
        klines: klines, price: Data(#"{"symbol":"BTCUSDT","price":"68901.23"}"#.utf8))
      let now = self.now
      let sut = AppComposition.makePriceViewModel(
        client: client, clock: clock, now: { now }, cacheFileURL: cacheFile, history: true,
        log: { _ in })

      let running = Task { await sut.run() }
      await waitOnMainActor(until: { sut.change24hText != nil })
      running.cancel()
      await running.value

      #expect(sut.change24hText == "▲ +$901.23 (+1.33%) in 24 hours")
      #expect(sut.change24hDirection == .up)
      #expect(
        sut.change24hAccessibilityLabel == "up 901 dollars 23 cents since a day ago, 1.33 percent")
      #expect(sut.chart?.title == "BTC/USD, last 24 hours · Binance")
      #expect(sut.chart?.points.count == 289)
      let kept = cacheFile.deletingLastPathComponent().appendingPathComponent("history-24h.json")
      #expect(FileManager.default.fileExists(atPath: kept.path))
    }
  }

  private func makeSUT(
    cacheFileURL: URL, client: AnsweringClient,
    log: @escaping @Sendable (String) -> Void = { _ in }
  ) -> PriceViewModel {
    let now = self.now
    return AppComposition.makePriceViewModel(
      client: client, clock: clock, now: { now }, cacheFileURL: cacheFileURL, log: log)
  }

  private func makeFile(_ folder: URL, _ name: String, modified secondsFromNow: TimeInterval)
    throws -> URL
  {
    let url = folder.appendingPathComponent(name)
    try Data("{}".utf8).write(to: url)
    try FileManager.default.setAttributes(
      [.modificationDate: now.addingTimeInterval(secondsFromNow)], ofItemAtPath: url.path)
    return url
  }

  private func exists(_ url: URL) -> Bool {
    FileManager.default.fileExists(atPath: url.path)
  }

  private func withCacheFolder(_ body: (URL) async throws -> Void) async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("app-composition-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try await body(folder.appendingPathComponent("last-price.json"))
  }
}

/// Answers every request with HTTP 200 and `body`, or, without a body, never answers (until the
/// request is cancelled).
private struct AnsweringClient: BTCHTTPClient {
  let body: String?

  func get(_ request: BTCHTTPRequest) async throws -> BTCHTTPResponse {
    guard let body else {
      let (never, continuation) = AsyncStream.makeStream(of: Never.self)
      for await _ in never {}
      continuation.finish()
      throw CancellationError()
    }
    return BTCHTTPResponse(status: 200, body: Data(body.utf8))
  }
}

/// Binance never answers (until the request is cancelled); every other source fails at once.
/// Records the hosts asked.
private struct HangingPrimaryClient: BTCHTTPClient {
  let hosts = Locked<[String]>([])

  func get(_ request: BTCHTTPRequest) async throws -> BTCHTTPResponse {
    let host = request.url.host ?? ""
    hosts.append(host)
    guard host == "api.binance.com" else { return BTCHTTPResponse(status: 500, body: Data()) }
    let (never, continuation) = AsyncStream.makeStream(of: Never.self)
    for await _ in never {}
    continuation.finish()
    throw CancellationError()
  }
}

/// Binance's klines on their path, its ticker on any other.
private final class KlinesAndPriceClient: BTCHTTPClient {
  let klines: Data
  let price: Data

  init(klines: Data, price: Data) {
    self.klines = klines
    self.price = price
  }

  func get(_ request: BTCHTTPRequest) async throws -> BTCHTTPResponse {
    BTCHTTPResponse(
      status: 200, body: request.url.path.hasSuffix("/klines") ? klines : price)
  }
}
