import BTCPriceCore
import BTCPriceNIO
import BTCPriceNetworking
import BTCPriceTestSupport
import BTCPriceURLSession
import Foundation
import NIOPosix
import Testing

/// Both WebSocket transports against the fake exchange's stream side over 127.0.0.1, through the
/// same ``WebSocketConnectorSpecs``: SwiftNIO's (the command line) always; URLSession's (the app)
/// wherever URLSession can open a WebSocket, which FoundationNetworking on Linux cannot while its
/// libcurl is built without WebSocket support (Debian 12's 7.88.1 is: docs/STREAMS.md, "The app's
/// transport"). There the last test pins the reason instead.
@Suite("WebSocket connector contract", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct WebSocketConnectorContractTests {
  enum Transport: String, CaseIterable, CustomTestStringConvertible {
    case nio, urlSession

    var testDescription: String { rawValue }

    func makeConnector() -> any WebSocketConnector {
      switch self {
      case .nio: NIOWebSocketConnector(group: MultiThreadedEventLoopGroup.singleton)
      case .urlSession: URLSessionWebSocketConnector()
      }
    }

    /// The transports that can open a WebSocket here (the specs run for each).
    static var available: [Transport] {
      get async {
        var transports = [Transport.nio]
        if await WebSocketConnectorContractTests.urlSessionOpensWebSockets() {
          transports.append(.urlSession)
        }
        return transports
      }
    }
  }

  @Test(arguments: await Transport.available)
  func sendsTheSubscriptionsAndHandsOverEachText(_ transport: Transport) async throws {
    try await withServer(transport) {
      try await WebSocketConnectorSpecs.sendsTheSubscriptionsAndHandsOverEachText($0, server: $1)
    }
  }

  @Test(arguments: await Transport.available)
  func sendsWhatItIsToldAfterTheSubscriptions(_ transport: Transport) async throws {
    try await withServer(transport) {
      try await WebSocketConnectorSpecs.sendsWhatItIsToldAfterTheSubscriptions($0, server: $1)
    }
  }

  @Test(arguments: await Transport.available)
  func reportsTheServersCloseCode(_ transport: Transport) async throws {
    try await withServer(transport) {
      try await WebSocketConnectorSpecs.reportsTheServersCloseCode($0, server: $1)
    }
  }

  @Test(arguments: await Transport.available)
  func refusesABinaryMessage(_ transport: Transport) async throws {
    try await withServer(transport) {
      try await WebSocketConnectorSpecs.refusesABinaryMessage($0, server: $1)
    }
  }

  @Test(arguments: await Transport.available)
  func neverHandsOverTextThatIsNotUTF8(_ transport: Transport) async throws {
    try await withServer(transport) {
      try await WebSocketConnectorSpecs.neverHandsOverTextThatIsNotUTF8($0, server: $1)
    }
  }

  @Test(arguments: await Transport.available)
  func endsAtAMessageLargerThanTheBound(_ transport: Transport) async throws {
    try await withServer(transport) {
      try await WebSocketConnectorSpecs.endsAtAMessageLargerThanTheBound($0, server: $1)
    }
  }

  @Test(arguments: await Transport.available)
  func reportsARefusedUpgrade(_ transport: Transport) async throws {
    try await withServer(transport) {
      try await WebSocketConnectorSpecs.reportsARefusedUpgrade($0, server: $1)
    }
  }

  @Test(arguments: await Transport.available)
  func closesTheConnectionWhenCancelled(_ transport: Transport) async throws {
    try await withServer(transport) {
      try await WebSocketConnectorSpecs.closesTheConnectionWhenCancelled($0, server: $1)
    }
  }

  @Test(arguments: await Transport.available)
  func reportsUnreachableWhenNothingListens(_ transport: Transport) async throws {
    try await WebSocketConnectorSpecs.reportsUnreachableWhenNothingListens(
      transport.makeConnector())
  }

  @Test func urlSessionWithoutWebSocketSupport_saysSoWithATypedError() async throws {
    guard !(await Self.urlSessionOpensWebSockets()) else { return }
    let server = try await FakeStreamServer.start()

    let ending = await URLSessionWebSocketConnector().run(url: server.url(), subscriptions: []) {
      _ in nil
    }

    #expect(ending == .unreachable("WebSockets not supported by libcurl"))
    #expect(server.connections == 0, "nothing reached the server")
    await server.stop()
  }

  // MARK: - Helpers

  /// Whether URLSession can open a WebSocket here. On Linux it answers at once, without a
  /// connection, when its libcurl has no WebSocket support.
  static func urlSessionOpensWebSockets() async -> Bool {
    let ending = await URLSessionWebSocketConnector().run(
      url: URL(string: "ws://127.0.0.1:\((try? FakeExchangeServer.unusedPort()) ?? 9)/")!,
      subscriptions: []
    ) { _ in nil }
    return ending != .unreachable("WebSockets not supported by libcurl")
  }

  private func withServer(
    _ transport: Transport,
    _ body: (any WebSocketConnector, FakeStreamServer) async throws -> Void
  ) async throws {
    let server = try await FakeStreamServer.start()
    do {
      try await body(transport.makeConnector(), server)
      await server.stop()
    } catch {
      await server.stop()
      throw error
    }
  }
}
