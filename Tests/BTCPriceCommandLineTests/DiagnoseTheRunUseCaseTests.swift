import BTCPriceCommandLine
import BTCPriceCore
import BTCPriceSettings
import BTCPriceSources
import BTCPriceTerminal
import BTCPriceTestSupport
import Foundation
import Testing

/// `btc-price doctor`: every source asked once side by side, every stream the ticks read opened
/// once, each setting with the layer it came from, and nothing that an earlier run's limit rests.
@Suite("Diagnose the run", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
final class DiagnoseTheRunUseCaseTests {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "DiagnoseTheRunUseCaseTests-\(UUID().uuidString)")

  deinit {
    try? FileManager.default.removeItem(at: folder)
  }

  // MARK: Where each setting came from

  @Test func eachSetting_saysTheLayerItCameFrom() async throws {
    let options = try resolve(
      ["interval": "2"], environment: ["BTC_PRICE_CURRENCY": "EUR"],
      file: "sources: kraken, coinbase\n")

    let settings = await report(options).settings

    #expect(
      settings.map { "\($0.name): \($0.value) (\($0.origin))" } == [
        "sources: kraken,coinbase (settings file)", "currency: EUR ($BTC_PRICE_CURRENCY)",
        "interval: 2 s (command line)", "primary-timeout: 800 ms (default)",
        "trust: the system's certificate authorities (default)",
      ])
  }

  @Test(arguments: [
    ([:], ["SSL_CERT_FILE": "/env/ca.pem"], "", "trust: /env/ca.pem ($SSL_CERT_FILE)"),
    (
      [:], ["SSL_CERT_DIR": "/env/certs"], "",
      "trust: the certificates in /env/certs ($SSL_CERT_DIR)"
    ),
    (
      ["ca-file": "/cli/ca.pem"], ["SSL_CERT_FILE": "/env/ca.pem"], "ca-file: /file/ca.pem\n",
      "trust: /cli/ca.pem (command line)"
    ),
    (
      [:], ["SSL_CERT_FILE": "/env/ca.pem"], "ca-file: /file/ca.pem\n",
      "trust: /file/ca.pem (settings file)"
    ),
  ])
  func theTrust_saysWhichSettingOrVariableChoseIt(
    commandLine: [String: String], environment: [String: String], file: String, line: String
  ) async throws {
    let options = try resolve(commandLine, environment: environment, file: file)

    let trust = try #require(await report(options).settings.first { $0.name == "trust" })

    #expect("\(trust.name): \(trust.value) (\(trust.origin))" == line)
  }

  @Test func anAPIKey_isRedacted_andSaysWhereItCameFrom() async throws {
    let options = try resolve(
      [:], environment: ["CRYPTOCOMPARE_API_KEY": "s3cret"], file: "")

    let key = try #require(
      await report(options).settings.first { $0.name == "cryptocompare-api-key" })

    #expect(key.value == "<redacted>")
    #expect(key.origin == "$CRYPTOCOMPARE_API_KEY")
  }

  @Test func theHoldings_areSaidToBeSet_neverHowMuch() async throws {
    let options = try resolve(
      ["holdings": "0.25"], environment: ["BTC_PRICE_COST_BASIS": "15000 USD"], file: "")

    let report = await report(options)
    let lines = report.settings.map { "\($0.name): \($0.value) (\($0.origin))" }

    #expect(lines.contains("holdings: set (never shown) (command line)"))
    #expect(lines.contains("cost-basis: set (never shown) ($BTC_PRICE_COST_BASIS)"))
    #expect(!lines.joined().contains("0.25") && !lines.joined().contains("15000"))
  }

  @Test func noHoldings_addNoLine() async throws {
    let options = try resolve([:], environment: [:], file: "")

    let names = await report(options).settings.map(\.name)

    #expect(!names.contains("holdings") && !names.contains("cost-basis"))
  }

  // MARK: Sources and streams

  @Test func everySource_isAskedOnceAtItsMarket_inChainOrder() async throws {
    let client = StubHTTPClient(body: #"{"symbol":"BTCEUR","price":"63412.70"}"#)
    let options = try resolve(
      ["sources": "binance,kraken", "currency": "EUR", "stream": "false"], environment: [:],
      file: "")

    let report = await report(options, client: client)

    #expect(report.checks.map(\.source) == ["binance", "kraken"])
    #expect(report.checks.first?.verdict == "price 63412.7 EUR")
    let prices = client.requests.map(\.url.absoluteString).filter {
      !$0.contains("klines") && !$0.contains("OHLC")
    }
    #expect(
      Set(prices) == [
        "https://api.binance.com/api/v3/ticker/price?symbol=BTCEUR",
        "https://api.kraken.com/0/public/Ticker?pair=XBTEUR",
      ])
    #expect(prices.count == 2)
    #expect(report.streams.map(\.source) == ["binance", "kraken"])
    #expect(report.streams.allSatisfy { $0.verdict == "not asked: streams are off (no-stream)" })
  }

  @Test func theDaysCandles_areAskedOnceOfEachExchange_andNotWithTheHistoryOff() async throws {
    let client = StubHTTPClient(body: #"{"symbol":"BTCEUR","price":"63412.70"}"#)
    let on = try resolve(
      ["sources": "binance,kraken", "currency": "EUR", "stream": "false"], environment: [:],
      file: "")
    let off = try resolve(
      ["sources": "binance,kraken", "currency": "EUR", "stream": "false", "history": "false"],
      environment: [:], file: "")

    let withHistory = await report(on, client: client)
    let candles = client.requests.map(\.url).filter {
      $0.path.hasSuffix("/klines") || $0.path.hasSuffix("/OHLC")
    }
    let withoutHistory = await report(off, client: client)

    #expect(withHistory.history?.map(\.source) == ["binance", "kraken"])
    // Asked side by side: the two requests arrive in either order.
    #expect(
      candles.compactMap(\.host).sorted() == ["api.binance.com", "api.kraken.com"])
    #expect(
      candles.first { $0.host == "api.binance.com" }?.query?.contains(
        "symbol=BTCEUR&interval=5m") == true)
    // The stub's price is no candle: each says why, and the exit status is the prices'.
    #expect(
      withHistory.history?.allSatisfy { $0.verdict.hasPrefix("failed: invalid data") } == true)
    #expect(withHistory.exitStatus == 0)
    #expect(withoutHistory.history == nil)
    #expect(client.requests.count == 6, "the run without history asked only the two prices")
  }

  @Test(arguments: [
    (1, "holds 1 candle of 5 min from binance"), (2, "holds 2 candles of 5 min from binance"),
  ])
  func theKeptHistoryFile_saysHowManyCandlesItHolds(count: Int, line: String) async throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let options = try ResolvedOptions.resolve(
      commandLine: ["cache-path": folder.appendingPathComponent("last-price.json").path],
      environment: ["XDG_STATE_HOME": folder.path, "HOME": folder.path],
      configPath: folder.appendingPathComponent("absent").path, noCache: false)
    let start = Date(timeIntervalSince1970: 1_764_300_000)
    let candles = try (0..<count).map {
      try Candle(
        start: start.addingTimeInterval(Double($0) * 300), open: 68_000, high: 68_100, low: 67_900,
        close: 68_050)
    }
    try #require(options.candleStore).save(
      try CandleSeries(
        currency: .usd, period: .seconds(300), candles: candles,
        source: PriceSourceDefinition.binance.source, fetchedAt: start),
      for: .day)

    let history = await report(options).files.first { $0.name == "history" }

    #expect(history?.health == line)
  }

  @Test func aSourceAnEarlierRunBanned_isNotAsked_andItsLimitListed() async throws {
    let client = StubHTTPClient(body: #"{"symbol":"BTCUSDT","price":"68901.23"}"#)
    let options = try resolve(
      ["sources": "binance", "stream": "false"], environment: [:], file: "")
    try options.limitStore?.save([
      SourceLimit(
        source: "binance", endpoint: "https://api.binance.com",
        until: Date().addingTimeInterval(600),
        cause: .rateLimited(status: 418, retryAfter: nil, message: "banned"), apiKeyGiven: false)
    ])

    let report = await report(options, client: client)

    #expect(client.requests.isEmpty)
    #expect(report.checks.first?.verdict.hasPrefix("not asked: resting for ") == true)
    #expect(report.limits.first?.hasPrefix("binance: not asked for ") == true)
    #expect(report.exitStatus == 1)
  }

  @Test func theStreamsChecked_areThePrimarysAndTheCrossChecks_andTheStandbyOnlyWhileOneRests()
    async throws
  {
    let sources = ["sources": "binance,coinbase,kraken"]
    let connector = TestWebSocketConnector()

    let healthy = await report(
      try resolve(sources, environment: [:], file: ""), connector: connector)
    #expect(healthy.streams.map(\.source) == ["binance", "coinbase"])
    #expect(
      Set(connector.attempts) == ["data-stream.binance.vision", "ws-feed.exchange.coinbase.com"])

    let options = try resolve(sources, environment: [:], file: "")
    try options.limitStore?.save([
      SourceLimit(
        source: "binance", endpoint: "wss://data-stream.binance.vision",
        until: Date().addingTimeInterval(600), cause: .httpStatus(451, message: nil),
        apiKeyGiven: false)
    ])
    let resting = await report(options, connector: TestWebSocketConnector())
    #expect(resting.streams.map(\.source) == ["binance", "coinbase", "kraken"])
    #expect(resting.streams.first?.verdict.hasPrefix("not asked: resting for ") == true)
  }

  // MARK: - Helpers

  private func resolve(
    _ commandLine: [String: String], environment: [String: String], file: String
  ) throws -> ResolvedOptions {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let config = folder.appendingPathComponent("config")
    try Data(file.utf8).write(to: config)
    return try ResolvedOptions.resolve(
      commandLine: commandLine,
      environment: environment.merging(["XDG_STATE_HOME": folder.path, "HOME": folder.path]) {
        given, _ in given
      },
      configPath: config.path, noCache: true)
  }

  private func report(
    _ options: ResolvedOptions, client: StubHTTPClient = StubHTTPClient(.failure(.hostNotFound)),
    connector: TestWebSocketConnector = TestWebSocketConnector()
  ) async -> DoctorReport {
    await Doctor(
      options: options, client: client,
      probe: StreamProbe(proxies: options.proxies, limit: .milliseconds(50)) { _ in connector }
    ).report()
  }
}
