import BTCPriceNIO
import BTCPriceSources
import BTCPriceTestSupport
import BTCPriceURLSession
import Testing

/// Both BTCHTTPClient adapters against the fake exchange: every contract and fault spec, once per
/// adapter, so the CLI's transport and the iPhone app's keep the same behaviour.
@Suite(
  "HTTP client adapters against the fake exchange", .timeLimit(.minutes(1)),
  .hangLimit(.seconds(30)))
struct HTTPClientAdapterTests {
  enum Adapter: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case swiftNIO = "SwiftNIO"
    case urlSession = "URLSession"

    var testDescription: String { rawValue }
  }

  @Test(arguments: Adapter.allCases)
  func get_deliversStatusHeadersAndBody(_ adapter: Adapter) async throws {
    try await with(adapter) {
      try await HTTPClientContractSpecs.deliversStatusHeadersAndBody($0, server: $1)
    }
  }

  @Test(arguments: Adapter.allCases)
  func get_sendsRequestHeadersAndQuery(_ adapter: Adapter) async throws {
    try await with(adapter) {
      try await HTTPClientContractSpecs.sendsRequestHeadersAndQuery($0, server: $1)
    }
  }

  @Test(arguments: Adapter.allCases)
  func get_refusesBodiesOverTheLimit(_ adapter: Adapter) async throws {
    try await with(adapter) {
      try await HTTPClientContractSpecs.refusesBodiesOverTheLimit($0, server: $1)
    }
  }

  /// Each client waits up to 20 s to connect (URLSession: its 30 s backstop), so one that waited
  /// out its timeout instead of failing at once takes twice the bound.
  @Test(arguments: Adapter.allCases)
  func get_mapsRefusedConnection(_ adapter: Adapter) async throws {
    let bound = Duration.seconds(10)
    try await with(adapter, connectTimeout: bound * 2) { client, _ in
      try await HTTPClientContractSpecs.mapsRefusedConnection(client, within: bound)
    }
  }

  @Test(arguments: Adapter.allCases)
  func get_honoursCancellationPromptly(_ adapter: Adapter) async throws {
    try await with(adapter) {
      try await HTTPClientContractSpecs.honoursCancellationPromptly($0, server: $1)
    }
  }

  @Test(arguments: Adapter.allCases)
  func get_reusesOneConnectionAcrossRequests(_ adapter: Adapter) async throws {
    try await with(adapter) {
      try await HTTPClientContractSpecs.reusesOneConnectionAcrossRequests($0, server: $1)
    }
  }

  @Test(arguments: Adapter.allCases)
  func get_mapsConnectionReset(_ adapter: Adapter) async throws {
    try await with(adapter) { try await HTTPClientFaultSpecs.mapsConnectionReset($0, server: $1) }
  }

  @Test(arguments: Adapter.allCases)
  func get_mapsUnknownHost(_ adapter: Adapter) async throws {
    try await with(adapter) { client, _ in try await HTTPClientFaultSpecs.mapsUnknownHost(client) }
  }

  @Test(arguments: Adapter.allCases)
  func get_mapsTLSFailure(_ adapter: Adapter) async throws {
    try await with(adapter) { try await HTTPClientFaultSpecs.mapsTLSFailure($0, server: $1) }
  }

  /// One adapter at a time: the spec measures the process's peak RSS, which two endless bodies
  /// streamed at once both raise (seen: 40-77 MiB, failing whichever case measured second).
  /// URLSession's memory is bounded only on Apple platforms (see the spec).
  @Test(.serialized, arguments: Adapter.allCases)
  func get_stopsReadingAnEndlessBodyAtTheLimit(_ adapter: Adapter) async throws {
    #if canImport(Darwin)
      let boundsMemory = true
    #else
      let boundsMemory = adapter == .swiftNIO
    #endif
    try await with(adapter) {
      try await HTTPClientFaultSpecs.stopsReadingAnEndlessBodyAtTheLimit(
        $0, server: $1, boundsMemory: boundsMemory)
    }
  }

  @Test(arguments: Adapter.allCases)
  func get_dropsATricklingServerWhenCancelled(_ adapter: Adapter) async throws {
    try await with(adapter) {
      try await HTTPClientFaultSpecs.dropsATricklingServerWhenCancelled($0, server: $1)
    }
  }

  /// Runs `body` with a fresh fake exchange and the adapter, and shuts both down afterwards.
  /// - Parameter connectTimeout: the SwiftNIO client's, when not its default; URLSession's
  ///   backstop stays its 30 s.
  private func with(
    _ adapter: Adapter, connectTimeout: Duration? = nil,
    _ body: (any BTCHTTPClient, FakeExchangeServer) async throws -> Void
  ) async throws {
    switch adapter {
    case .swiftNIO:
      try await withClientAndServer(connectTimeout: connectTimeout) { try await body($0, $1) }
    case .urlSession:
      try await FakeExchangeServer.withRunning { server in
        let client = URLSessionHTTPClient()
        defer { client.shutdown() }
        try await body(client, server)
      }
    }
  }
}
