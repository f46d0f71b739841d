import BTCPriceSources
import Foundation
import Testing

/// The ``BTCHTTPClient`` contract as checks against a running ``FakeExchangeServer``; every adapter's
/// tests run all of them.
public enum HTTPClientContractSpecs {
  public static func deliversStatusHeadersAndBody(
    _ client: some BTCHTTPClient, server: FakeExchangeServer,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    await server.stub(
      .binance,
      FakeResponse(
        status: 429, headers: ["Retry-After": "7"], json: #"{"code":-1003,"msg":"Too many"}"#))

    let response = try await client.get(BTCHTTPRequest(url: server.url(for: .binance)))

    #expect(response.status == 429, sourceLocation: sourceLocation)
    #expect(response.headers["retry-after"] == "7", sourceLocation: sourceLocation)
    #expect(
      String(decoding: response.body, as: UTF8.self) == #"{"code":-1003,"msg":"Too many"}"#,
      sourceLocation: sourceLocation)
  }

  public static func sendsRequestHeadersAndQuery(
    _ client: some BTCHTTPClient, server: FakeExchangeServer,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    await server.stub(.cryptoCompare, .cryptoCompare(price: "1"))

    _ = try await client.get(
      BTCHTTPRequest(
        url: server.url(for: .cryptoCompare),
        headers: [("User-Agent", "btc-price/test"), ("Authorization", "Apikey k")]))

    let recorded = try #require(
      await server.requests(to: .cryptoCompare).first, sourceLocation: sourceLocation)
    #expect(recorded.query == "fsym=BTC&tsym=USD&e=coinbase", sourceLocation: sourceLocation)
    #expect(recorded.headers["user-agent"] == "btc-price/test", sourceLocation: sourceLocation)
    #expect(recorded.headers["authorization"] == "Apikey k", sourceLocation: sourceLocation)
  }

  public static func refusesBodiesOverTheLimit(
    _ client: some BTCHTTPClient, server: FakeExchangeServer,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    await server.stub(.binance, FakeResponse(body: Data(repeating: 0x61, count: 200_000)))

    await #expect(
      throws: BTCHTTPClientError.bodyTooLarge(limit: 1024), sourceLocation: sourceLocation
    ) {
      try await client.get(BTCHTTPRequest(url: server.url(for: .binance), maxBodySize: 1024))
    }
  }

  /// A refused connection fails as refused, and at once: it does not wait out the client's
  /// connect timeout, so the chain can ask the next source within the tick.
  ///
  /// - Parameter bound: how long the failure may take. Give the client a connect timeout (and
  ///   backstop) well above it, so that a client that waits for either fails here; keep it
  ///   generous, because in a full parallel test run on two cores the scheduler alone has held
  ///   this request 3.5 s with nothing wrong in the client.
  public static func mapsRefusedConnection(
    _ client: some BTCHTTPClient, within bound: Duration,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let closedPort = try FakeExchangeServer.unusedPort()
    let started = ContinuousClock.now

    await #expect(throws: BTCHTTPClientError.connectionRefused, sourceLocation: sourceLocation) {
      try await client.get(BTCHTTPRequest(url: URL(string: "http://127.0.0.1:\(closedPort)/")!))
    }
    #expect(ContinuousClock.now - started < bound, sourceLocation: sourceLocation)
  }

  public static func honoursCancellationPromptly(
    _ client: some BTCHTTPClient, server: FakeExchangeServer,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    await server.stub(.binance, .binance(price: "1", delay: .seconds(10)))
    let started = ContinuousClock.now

    let request = Task { try await client.get(BTCHTTPRequest(url: server.url(for: .binance))) }
    await waitUntilRequestArrives(at: server, route: .binance)
    request.cancel()
    let result = await request.result

    #expect(throws: CancellationError.self, sourceLocation: sourceLocation) { try result.get() }
    #expect(ContinuousClock.now - started < .seconds(5), sourceLocation: sourceLocation)
  }

  public static func reusesOneConnectionAcrossRequests(
    _ client: some BTCHTTPClient, server: FakeExchangeServer,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    await server.stub(.binance, .binance(price: "1"))

    for _ in 0..<5 {
      _ = try await client.get(BTCHTTPRequest(url: server.url(for: .binance)))
    }

    let ports = Set(await server.requests(to: .binance).compactMap(\.remotePort))
    #expect(
      ports.count == 1, "5 requests used \(ports.count) connections", sourceLocation: sourceLocation
    )
  }

  private static func waitUntilRequestArrives(
    at server: FakeExchangeServer, route: FakeExchangeServer.Route
  )
    async
  {
    let deadline = ContinuousClock.now + .seconds(5)
    while await server.requests(to: route).isEmpty, ContinuousClock.now < deadline {
      await Task.yield()
    }
  }
}
