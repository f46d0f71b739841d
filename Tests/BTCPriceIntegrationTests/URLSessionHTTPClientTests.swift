import BTCPriceNetworking
import BTCPriceTestSupport
import BTCPriceURLSession
import Testing

@Suite("URLSession adapter against the fake exchange", .timeLimit(.minutes(1)))
struct URLSessionHTTPClientTests {
  @Test func get_deliversStatusHeadersAndBody() async throws {
    try await withSUT {
      try await HTTPClientContractSpecs.deliversStatusHeadersAndBody($0, server: $1)
    }
  }

  @Test func get_sendsRequestHeadersAndQuery() async throws {
    try await withSUT {
      try await HTTPClientContractSpecs.sendsRequestHeadersAndQuery($0, server: $1)
    }
  }

  @Test func get_refusesBodiesOverTheLimit() async throws {
    try await withSUT {
      try await HTTPClientContractSpecs.refusesBodiesOverTheLimit($0, server: $1)
    }
  }

  @Test func get_mapsRefusedConnection() async throws {
    try await withSUT { client, _ in try await HTTPClientContractSpecs.mapsRefusedConnection(client)
    }
  }

  @Test func get_honoursCancellationPromptly() async throws {
    try await withSUT {
      try await HTTPClientContractSpecs.honoursCancellationPromptly($0, server: $1)
    }
  }

  @Test func get_reusesOneConnectionAcrossRequests() async throws {
    try await withSUT {
      try await HTTPClientContractSpecs.reusesOneConnectionAcrossRequests($0, server: $1)
    }
  }

  @Test func get_mapsConnectionReset() async throws {
    try await withSUT { try await HTTPClientFaultSpecs.mapsConnectionReset($0, server: $1) }
  }

  @Test func get_mapsUnknownHost() async throws {
    try await withSUT { client, _ in try await HTTPClientFaultSpecs.mapsUnknownHost(client) }
  }

  @Test func get_mapsTLSFailure() async throws {
    try await withSUT { try await HTTPClientFaultSpecs.mapsTLSFailure($0, server: $1) }
  }

  @Test func get_stopsReadingAnEndlessBodyAtTheLimit() async throws {
    try await withSUT {
      try await HTTPClientFaultSpecs.stopsReadingAnEndlessBodyAtTheLimit($0, server: $1)
    }
  }

  @Test func get_dropsATricklingServerWhenCancelled() async throws {
    try await withSUT {
      try await HTTPClientFaultSpecs.dropsATricklingServerWhenCancelled($0, server: $1)
    }
  }

  private func withSUT(
    _ body: (URLSessionHTTPClient, FakeExchangeServer) async throws -> Void
  ) async throws {
    try await FakeExchangeServer.withRunning { server in
      let client = URLSessionHTTPClient()
      defer { client.shutdown() }
      try await body(client, server)
    }
  }
}
