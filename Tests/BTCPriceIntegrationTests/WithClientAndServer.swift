import BTCPriceNIO
import BTCPriceTestSupport

/// Runs `body` with a fresh fake exchange and the CLI's SwiftNIO client, and shuts both down
/// afterwards, also when `body` throws.
///
/// - Parameter connectTimeout: the client's, when not its default.
func withClientAndServer<Result>(
  connectTimeout: Duration? = nil,
  _ body: (NIOHTTPClient, FakeExchangeServer) async throws -> Result
) async throws -> Result {
  try await FakeExchangeServer.withRunning { server in
    let client = connectTimeout.map { NIOHTTPClient(connectTimeout: $0) } ?? NIOHTTPClient()
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
