import BTCPriceCore
import BTCPricePipeline
import BTCPriceRuntime
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// The price history a pipeline keeps asks the chain's own exchanges under the same limits as
/// the prices: a ban its candles meet rests the price asked at the same endpoint and is kept
/// across runs, a ban kept for an endpoint holds for its candles, and the candles of another
/// host (Coinbase Exchange's) are limited apart.
@Suite(
  "Keep the history under the prices' limits", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct KeepTheHistoryUnderThePricesLimitsUseCaseTests {
  static let now = Date(timeIntervalSince1970: 1_795_356_185)

  @Test func aBanTheCandlesMeet_restsThePriceAtTheSameEndpoint_andIsKept() async throws {
    let store = InMemorySourceLimitStore()
    let client = PathRoutedClient([
      "/api/v3/klines": .init(status: 418, body: #"{"code":-1003,"msg":"banned"}"#),
      "/api/v3/ticker/price": .init(status: 200, body: #"{"symbol":"BTCUSDT","price":"1.00"}"#),
      "/v2/prices/BTC-USD/spot": .init(
        status: 200, body: #"{"data":{"amount":"68880.55","base":"BTC","currency":"USD"}}"#),
    ])
    let pipeline = makeSUT(client: client, store: store)

    _ = try await #require(pipeline.history).refreshIfDue(.day)
    let update = try await pipeline.feed.update(within: .seconds(1))

    #expect(update.quote?.source == .coinbase)
    #expect(!client.paths.contains("/api/v3/ticker/price"))
    #expect(store.stored.map(\.endpoint).contains("https://api.binance.com"))
  }

  @Test func aLimitOnCoinbaseExchangesCandles_leavesItsSpotPriceAlone() async throws {
    let client = PathRoutedClient([
      "/api/v3/klines": .init(status: 500, body: "{}"),
      "/products/BTC-USD/candles": .init(status: 429, body: #"{"message":"slow down"}"#),
      "/v2/prices/BTC-USD/spot": .init(
        status: 200, body: #"{"data":{"amount":"68880.55","base":"BTC","currency":"USD"}}"#),
    ])
    let pipeline = makeSUT(client: client, store: InMemorySourceLimitStore(), sources: [.coinbase])

    _ = try await #require(pipeline.history).refreshIfDue(.day)
    let update = try await pipeline.feed.update(within: .seconds(1))

    #expect(update.quote?.source == .coinbase)
    #expect(client.paths == ["/products/BTC-USD/candles", "/v2/prices/BTC-USD/spot"])
  }

  @Test func aLimitTheCandlesMeetAtTheirOwnHost_isKeptForTheNextRun() async throws {
    let store = InMemorySourceLimitStore()
    let limited = PathRoutedClient([
      "/products/BTC-USD/candles": .init(status: 429, body: #"{"message":"slow down"}"#)
    ])
    _ = try await #require(makeSUT(client: limited, store: store, sources: [.coinbase]).history)
      .refreshIfDue(.day)

    let nextRun = PathRoutedClient([:])
    _ = try await #require(makeSUT(client: nextRun, store: store, sources: [.coinbase]).history)
      .refreshIfDue(.day)

    #expect(store.stored.map(\.endpoint) == ["https://api.exchange.coinbase.com"])
    #expect(nextRun.paths.isEmpty, "the next run waits out the limit")
  }

  @Test func aBanKeptForTheEndpoint_holdsForItsCandles() async throws {
    let store = InMemorySourceLimitStore(stored: [
      SourceLimit(
        source: "binance", endpoint: "https://api.binance.com",
        until: Self.now.addingTimeInterval(600),
        cause: .rateLimited(status: 418, retryAfter: nil, message: nil), apiKeyGiven: false)
    ])
    let client = PathRoutedClient([:])
    let pipeline = makeSUT(client: client, store: store, sources: [.binance])

    _ = try await #require(pipeline.history).refreshIfDue(.day)

    #expect(client.paths.isEmpty)
  }

  @Test func noHistory_whenTheRunAsksForNoneOrThePipelineKeepsNone() {
    let client = PathRoutedClient([:])
    var off = PricePipeline.Configuration(primaryTimeout: .seconds(1), stream: false)
    off.history = false

    #expect(makeSUT(client: client, store: nil, configuration: off).history == nil)
    #expect(
      PricePipeline(
        .init(primaryTimeout: .seconds(1), stream: false), client: client,
        clock: SteppedTestClock(), now: { Self.now }, store: nil, limitStore: nil,
        warn: { _ in }
      ).history == nil)
  }

  private func makeSUT(
    client: PathRoutedClient, store: InMemorySourceLimitStore?,
    sources: [PriceSourceDefinition] = [.binance, .coinbase],
    configuration: PricePipeline.Configuration? = nil
  ) -> PricePipeline {
    PricePipeline(
      configuration
        ?? .init(sources: sources, primaryTimeout: .seconds(1), stream: false),
      client: client, clock: SteppedTestClock(), now: { Self.now }, store: nil,
      limitStore: store, warn: { _ in }, history: true)
  }
}

/// Answers by the request's path; 404 for any other; records every path asked.
private final class PathRoutedClient: BTCHTTPClient {
  private let answers: [String: BTCHTTPResponse]
  private let asked = Locked<[String]>([])

  init(_ answers: [String: BTCHTTPResponse]) {
    self.answers = answers
  }

  var paths: [String] { asked.value }

  func get(_ request: BTCHTTPRequest) async throws -> BTCHTTPResponse {
    let path = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.path ?? ""
    asked.append(path)
    return answers[path] ?? BTCHTTPResponse(status: 404, body: Data("{}".utf8))
  }
}

extension BTCHTTPResponse {
  fileprivate init(status: Int, body: String) {
    self.init(status: status, body: Data(body.utf8))
  }
}
