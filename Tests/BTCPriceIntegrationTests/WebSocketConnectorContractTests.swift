import BTCPriceCore
import BTCPriceNIO
import BTCPriceSources
import BTCPriceTestSupport
import BTCPriceURLSession
import Foundation
import NIOPosix
import Testing

/// Both WebSocket transports against the fake exchange's stream side over 127.0.0.1, through the
/// same ``WebSocketConnectorSpecs``: SwiftNIO's (the command line) everywhere; URLSession's (the
/// app) only where URLSession can open a WebSocket, which FoundationNetworking on Linux cannot
/// while its libcurl is built without WebSocket support (Debian 12's 7.88.1 is: docs/STREAMS.md,
/// "The app's transport"). There its tests are skipped, saying why, and the last test pins the
/// reason instead; they have never run until a Mac runs them (README, "Platforms").
@Suite("WebSocket connector contract", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct WebSocketConnectorContractTests {
  /// Each spec, as the two transports' tests name it.
  enum Spec: String, CaseIterable, CustomTestStringConvertible {
    case sendsTheSubscriptionsAndHandsOverEachText, sendsWhatItIsToldAfterTheSubscriptions,
      reportsTheServersCloseCode, refusesABinaryMessage, neverHandsOverTextThatIsNotUTF8,
      endsAtAMessageLargerThanTheBound, reportsARefusedUpgrade, closesTheConnectionWhenCancelled,
      reportsUnreachableWhenNothingListens

    var testDescription: String { rawValue }

    /// Runs the spec on `connector` against a fresh fake stream server.
    func run(_ connector: some WebSocketConnector, exactCloseCode: Bool) async throws {
      if self == .reportsUnreachableWhenNothingListens {
        return try await WebSocketConnectorSpecs.reportsUnreachableWhenNothingListens(connector)
      }
      try await FakeStreamServer.withRunning { server in
        try await run(connector, server: server, exactCloseCode: exactCloseCode)
      }
    }

    private func run(
      _ connector: some WebSocketConnector, server: FakeStreamServer, exactCloseCode: Bool
    ) async throws {
      switch self {
      case .sendsTheSubscriptionsAndHandsOverEachText:
        try await WebSocketConnectorSpecs.sendsTheSubscriptionsAndHandsOverEachText(
          connector, server: server)
      case .sendsWhatItIsToldAfterTheSubscriptions:
        try await WebSocketConnectorSpecs.sendsWhatItIsToldAfterTheSubscriptions(
          connector, server: server)
      case .reportsTheServersCloseCode:
        try await WebSocketConnectorSpecs.reportsTheServersCloseCode(
          connector, server: server, exactCode: exactCloseCode)
      case .refusesABinaryMessage:
        try await WebSocketConnectorSpecs.refusesABinaryMessage(connector, server: server)
      case .neverHandsOverTextThatIsNotUTF8:
        try await WebSocketConnectorSpecs.neverHandsOverTextThatIsNotUTF8(
          connector, server: server)
      case .endsAtAMessageLargerThanTheBound:
        try await WebSocketConnectorSpecs.endsAtAMessageLargerThanTheBound(
          connector, server: server)
      case .reportsARefusedUpgrade:
        try await WebSocketConnectorSpecs.reportsARefusedUpgrade(connector, server: server)
      case .closesTheConnectionWhenCancelled:
        try await WebSocketConnectorSpecs.closesTheConnectionWhenCancelled(
          connector, server: server)
      case .reportsUnreachableWhenNothingListens:
        break
      }
    }
  }

  @Test(arguments: Spec.allCases)
  func nio(_ spec: Spec) async throws {
    try await spec.run(
      NIOWebSocketConnector(group: MultiThreadedEventLoopGroup.singleton), exactCloseCode: true)
  }

  /// The server's close code is asked of URLSession only loosely: see
  /// ``WebSocketConnectorSpecs/reportsTheServersCloseCode(_:server:exactCode:sourceLocation:)``.
  @Test(
    .enabled("this URLSession cannot open a WebSocket (Linux: libcurl without WebSocket support)") {
      await WebSocketConnectorContractTests.urlSessionOpensWebSockets()
    },
    arguments: Spec.allCases)
  func urlSession(_ spec: Spec) async throws {
    try await spec.run(URLSessionWebSocketConnector(), exactCloseCode: false)
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
}
