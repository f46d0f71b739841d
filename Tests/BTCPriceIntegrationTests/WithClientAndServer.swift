import BTCPriceAsyncHTTPClient
import BTCPriceTestSupport

/// Runs `body` with a fresh fake exchange and AsyncHTTPClient adapter, and shuts both down
/// afterwards, also when `body` throws.
func withClientAndServer<Result>(
  _ body: (AsyncHTTPClientAdapter, FakeExchangeServer) async throws -> Result
) async throws -> Result {
  try await FakeExchangeServer.withRunning { server in
    let client = AsyncHTTPClientAdapter()
    do {
      let result = try await body(client, server)
      await client.shutdown()
      return result
    } catch {
      await client.shutdown()
      throw error
    }
  }
}
