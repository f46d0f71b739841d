import BTCPriceSources
import Foundation
import Testing

/// How every ``BTCHTTPClient`` adapter must behave against hostile or broken servers: each fault is a
/// typed error, nothing is read past the body limit, and a slow server never outlives the caller.
public enum HTTPClientFaultSpecs {
  public static func mapsConnectionReset(
    _ client: some BTCHTTPClient, server: FakeExchangeServer,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    await server.stub(.binance, .reset)

    await #expect(throws: BTCHTTPClientError.connectionReset, sourceLocation: sourceLocation) {
      try await client.get(BTCHTTPRequest(url: server.url(for: .binance)))
    }
  }

  public static func mapsUnknownHost(
    _ client: some BTCHTTPClient, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    // `.invalid` is reserved (RFC 2606): no resolver anywhere answers it. HTTPS, as every real
    // source: under App Transport Security a plain-http request can fail before the DNS lookup,
    // with a different error.
    await #expect(throws: BTCHTTPClientError.hostNotFound, sourceLocation: sourceLocation) {
      try await client.get(BTCHTTPRequest(url: URL(string: "https://btc-price-test.invalid/")!))
    }
  }

  public static func mapsTLSFailure(
    _ client: some BTCHTTPClient, server: FakeExchangeServer,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    await server.stub(.binance, .binance(price: "1"))
    // The fake speaks plain HTTP, so a TLS handshake with it cannot succeed.
    let url = URL(string: "https://127.0.0.1:\(server.port)/api/v3/ticker/price")!

    await #expect(sourceLocation: sourceLocation) {
      try await client.get(BTCHTTPRequest(url: url))
    } throws: { error in
      guard case .tlsFailure = error as? BTCHTTPClientError else { return false }
      return true
    }
  }

  /// A 64 MiB body is cut at the limit: the adapter neither waits for the rest nor holds it.
  ///
  /// - Parameter boundsMemory: false where the adapter cannot bound it: swift-corelibs-foundation's
  ///   URLSession (Linux) reads with libcurl on a thread of its own and queues every chunk for the
  ///   delegate without back-pressure, so on a busy machine most of the 64 MiB is queued before
  ///   the delegate sees the first chunk and cancels (seen in CI: 62 MiB). Apple's URLSession,
  ///   the one the app runs, stops reading when its delegate falls behind.
  public static func stopsReadingAnEndlessBodyAtTheLimit(
    _ client: some BTCHTTPClient, server: FakeExchangeServer, boundsMemory: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    await server.stub(.binance, .endless(bytes: 64 * 1024 * 1024))
    let peakBefore = ProcessMemory.peakResidentBytes()

    await #expect(
      throws: BTCHTTPClientError.bodyTooLarge(limit: 64 * 1024), sourceLocation: sourceLocation
    ) {
      try await client.get(BTCHTTPRequest(url: server.url(for: .binance)))
    }
    // Generous: other tests run in this process at the same time. Holding the body would add
    // 64 MiB (more with copies).
    if boundsMemory, let before = peakBefore, let after = ProcessMemory.peakResidentBytes() {
      #expect(
        after - before < 32 * 1024 * 1024, "peak RSS grew by \((after - before) >> 20) MiB",
        sourceLocation: sourceLocation)
    }
  }

  /// A server trickling a valid answer one byte at a time is dropped when the caller gives up.
  public static func dropsATricklingServerWhenCancelled(
    _ client: some BTCHTTPClient, server: FakeExchangeServer,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    await server.stub(
      .binance,
      FakeResponse.binance(price: "1").delivered(.trickle(chunk: 1, every: .milliseconds(200))))

    let request = Task { try await client.get(BTCHTTPRequest(url: server.url(for: .binance))) }
    #expect(
      await server.waitForRequests(to: .binance, count: 1), sourceLocation: sourceLocation)
    try await Task.sleep(for: .milliseconds(300))
    let cancelled = ContinuousClock.now
    request.cancel()
    let result = await request.result

    #expect(throws: CancellationError.self, sourceLocation: sourceLocation) { try result.get() }
    // The body's 33 bytes take over 6 s to trickle in; the bound leaves room for the scheduler,
    // which has held a request 3.5 s in a full run on two cores.
    #expect(ContinuousClock.now - cancelled < .seconds(4), sourceLocation: sourceLocation)
  }
}
