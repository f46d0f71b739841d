import BTCPriceCore
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Load price from a remote source", .hangLimit(.seconds(30)))
struct LoadPriceFromRemoteUseCaseTests {
  let now = Date(timeIntervalSince1970: 1_795_356_185)

  @Test func load_deliversQuoteStampedWithNowAndSource() async throws {
    let client = StubHTTPClient(
      .response(
        BTCHTTPResponse(status: 200, body: Data(#"{"symbol":"BTCUSDT","price":"68901.23"}"#.utf8))))
    let sut = makeSUT(client: client, definition: .binance, now: now)

    let quote = try await sut.load()

    #expect(
      quote
        == PriceQuote(
          value: Decimal(string: "68901.23")!, currency: "USD", timestamp: now, source: .binance))
  }

  @Test func load_requestsBinanceURLWithUserAgentAndNoAuthorization() async throws {
    let client = StubHTTPClient(.failure(.connectionRefused))
    let sut = makeSUT(client: client, definition: .binance, now: now)

    _ = try? await sut.load()

    let request = try #require(client.requests.first)
    #expect(request.url == PriceSourceDefinition.binance.defaultURL)
    #expect(request.header("User-Agent") == "btc-price/\(BTCPriceVersion.current)")
    #expect(request.header("Authorization") == nil)
  }

  @Test func load_sendsCryptoCompareKeyOnlyAsApikeyAuthorization() async throws {
    let client = StubHTTPClient(.failure(.connectionRefused))
    let url = URL(string: "http://127.0.0.1:9/data/generateAvg?fsym=BTC&tsym=USD&e=coinbase")!
    let sut = makeSUT(
      client: client, definition: .cryptoCompare, url: url, apiKey: "s3cr3t", now: now)

    _ = try? await sut.load()

    let request = try #require(client.requests.first)
    #expect(request.url == url)
    #expect(request.header("Authorization") == "Apikey s3cr3t")
  }

  @Test func load_sendsNoAuthorizationWithoutCryptoCompareKey() async throws {
    for key in [nil, ""] as [String?] {
      let client = StubHTTPClient(.failure(.connectionRefused))
      _ = try? await makeSUT(
        client: client, definition: .cryptoCompare, apiKey: key, now: now
      ).load()
      #expect(client.requests.first?.header("Authorization") == nil)
    }
  }

  @Test func load_deliversUnreachableOnTransportError() async {
    let sut = makeSUT(
      client: StubHTTPClient(.failure(.connectionReset)), definition: .binance,
      now: now)

    await #expect(throws: PriceSourceError.unreachable("connection reset")) { try await sut.load() }
  }

  @Test func load_deliversInvalidDataOnOversizedBody() async {
    let sut = makeSUT(
      client: StubHTTPClient(.failure(.bodyTooLarge(limit: 65536))), definition: .binance,
      now: now)

    await #expect(throws: PriceSourceError.invalidData("response body over 65536 bytes")) {
      try await sut.load()
    }
  }

  @Test func load_neverMentionsTheAPIKeyInErrors() async {
    let body =
      #"{"Data":{},"Err":{"type":1,"message":"You are over your rate limit please upgrade your account!"}}"#
    let client = StubHTTPClient(.response(BTCHTTPResponse(status: 429, body: Data(body.utf8))))
    let sut = makeSUT(
      client: client, definition: .cryptoCompare, apiKey: "s3cr3t-key", now: now)

    do {
      _ = try await sut.load()
      Issue.record("expected an error")
    } catch {
      #expect(!"\(error)".contains("s3cr3t-key"))
      #expect(
        error as? PriceSourceError
          == .rateLimited(
            status: 429, retryAfter: nil,
            message: "You are over your rate limit please upgrade your account!"))
    }
  }

  @Test(arguments: [429, 418])
  func load_deliversRateLimitedWithTheServersRetryAfter(status: Int) async {
    let client = StubHTTPClient(
      .response(
        BTCHTTPResponse(
          status: status, headers: ["Retry-After": "120"],
          body: Data(#"{"code":-1003,"msg":"Too many requests."}"#.utf8))))
    let sut = makeSUT(client: client, definition: .binance, now: now)

    await #expect(
      throws: PriceSourceError.rateLimited(
        status: status, retryAfter: .seconds(120), message: "Too many requests.")
    ) { try await sut.load() }
  }

  @Test func load_deliversRateLimitedWithoutRetryAfterWhenTheHeaderIsMissingOrBroken() async {
    let client = StubHTTPClient(
      .response(BTCHTTPResponse(status: 429, headers: ["Retry-After": "soon"], body: Data())))
    let sut = makeSUT(client: client, definition: .binance, now: now)

    await #expect(
      throws: PriceSourceError.rateLimited(status: 429, retryAfter: nil, message: nil)
    ) { try await sut.load() }
  }

  @Test func load_asksEachCatalogueSourceAtItsRealURLWithUserAgent() async throws {
    for entry in PriceSourceRegistry.all {
      let client = StubHTTPClient(.failure(.connectionRefused))
      let sut = makeSUT(
        client: client, definition: entry, apiKey: "k", now: now)

      _ = try? await sut.load()

      let request = try #require(client.requests.first)
      #expect(request.url == entry.defaultURL)
      #expect(request.header("User-Agent") == BTCPriceVersion.userAgent)
      #expect((request.header("Authorization") != nil) == (entry.apiKey != nil), "\(entry.source)")
    }
  }

  /// A loader for `definition` in USD, at `url` (default: its real endpoint, its USD market).
  private func makeSUT(
    client: any BTCHTTPClient, definition: PriceSourceDefinition, url: URL? = nil,
    apiKey: String? = nil, now: Date
  ) -> RemotePriceLoader {
    RemotePriceLoader(
      client: client, definition: definition, currency: .usd, url: url ?? definition.defaultURL,
      apiKey: apiKey, now: { now })
  }
}
