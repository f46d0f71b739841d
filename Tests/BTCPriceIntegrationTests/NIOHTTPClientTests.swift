import BTCPriceNIO
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// What the command-line tool's HTTP client does beyond the adapter contract, which
/// ``HTTPClientAdapterTests`` checks: redirects as AsyncHTTPClient followed them, a pooled
/// connection the server dropped, headers that could forge a request.
@Suite("The SwiftNIO client beyond the contract", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct NIOHTTPClientTests {
  @Test func redirect_isFollowedWithTheRequestsHeaders() async throws {
    try await withClientAndServer { client, server in
      let target = server.url(for: .cryptoCompare).absoluteString
      await server.stub(
        .binance, FakeResponse(status: 302, headers: ["Location": target], json: "{}"))
      await server.stub(.cryptoCompare, .cryptoCompare(price: "68910.12"))

      let response = try await client.get(
        BTCHTTPRequest(url: server.url(for: .binance), headers: [("Authorization", "Apikey k")]))

      #expect(response.status == 200)
      #expect(String(decoding: response.body, as: UTF8.self).contains("68910.12"))
      let followed = try #require(await server.requests(to: .cryptoCompare).first)
      #expect(followed.headers["authorization"] == "Apikey k")
    }
  }

  /// An API key is sent to its own host only (ENGINEERING rule 8), wherever a redirect points.
  @Test func redirect_toAnotherOrigin_dropsTheAuthorizationHeader() async throws {
    try await withClientAndServer { client, server in
      try await FakeExchangeServer.withRunning { elsewhere in
        let target = elsewhere.url(for: .cryptoCompare).absoluteString
        await server.stub(
          .binance, FakeResponse(status: 307, headers: ["Location": target], json: "{}"))
        await elsewhere.stub(.cryptoCompare, .cryptoCompare(price: "1"))

        let response = try await client.get(
          BTCHTTPRequest(
            url: server.url(for: .binance),
            headers: [("Authorization", "Apikey k"), ("User-Agent", "btc-price/test")]))

        #expect(response.status == 200)
        let followed = try #require(await elsewhere.requests(to: .cryptoCompare).first)
        #expect(followed.headers["authorization"] == nil)
        #expect(followed.headers["user-agent"] == "btc-price/test")
      }
    }
  }

  @Test func redirectLoop_endsWithTheRedirectItself() async throws {
    try await withClientAndServer { client, server in
      let binance = server.url(for: .binance).absoluteString
      let cryptoCompare = server.url(for: .cryptoCompare).absoluteString
      await server.stub(
        .binance, FakeResponse(status: 302, headers: ["Location": cryptoCompare], json: "{}"))
      await server.stub(
        .cryptoCompare, FakeResponse(status: 302, headers: ["Location": binance], json: "{}"))

      let response = try await client.get(BTCHTTPRequest(url: server.url(for: .binance)))

      #expect(response.status == 302)
      #expect(await server.requests(to: .binance).count == 1)
      #expect(await server.requests(to: .cryptoCompare).count == 1)
    }
  }

  /// A server may drop a kept-alive connection just as the next request goes out; that request
  /// is asked again on a new connection instead of failing the source for the tick.
  @Test func pooledConnectionDroppedByTheServer_isReplacedOnce() async throws {
    try await withClientAndServer { client, server in
      await server.stub(.binance, .binance(price: "1"), .reset, .binance(price: "2"))

      _ = try await client.get(BTCHTTPRequest(url: server.url(for: .binance)))
      let second = try await client.get(BTCHTTPRequest(url: server.url(for: .binance)))

      #expect(String(decoding: second.body, as: UTF8.self).contains(#""price":"2""#))
      let ports = await server.requests(to: .binance).compactMap(\.remotePort)
      #expect(ports.count == 3)
      #expect(Set(ports).count == 2, "\(ports)")
    }
  }

  /// A fresh connection reset before the answer is the server's doing, not a stale pool: no
  /// second try (HTTPClientFaultSpecs.mapsConnectionReset checks the error).
  @Test func freshConnectionReset_isNotRetried() async throws {
    try await withClientAndServer { client, server in
      await server.stub(.binance, .reset, .binance(price: "2"))

      await #expect(throws: BTCHTTPClientError.connectionReset) {
        try await client.get(BTCHTTPRequest(url: server.url(for: .binance)))
      }
      #expect(await server.requests(to: .binance).count == 1)
    }
  }

  /// A value from the environment (an API key) must not be able to add a header or a request.
  @Test(arguments: ["k\r\nX-Injected: 1", "k\nGET / HTTP/1.1", "k\u{0}"])
  func headerValueThatWouldSplitTheRequest_isRefused(value: String) async throws {
    try await withClientAndServer { client, server in
      await server.stub(.binance, .binance(price: "1"))

      await #expect(throws: BTCHTTPClientError.other("invalid request header")) {
        try await client.get(
          BTCHTTPRequest(url: server.url(for: .binance), headers: [("Authorization", value)]))
      }
      #expect(await server.requests(to: .binance).isEmpty)
    }
  }
}
