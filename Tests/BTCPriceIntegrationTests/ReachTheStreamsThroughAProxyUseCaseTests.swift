import BTCPriceCore
import BTCPriceNIO
import BTCPriceRuntime
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import NIOPosix
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The NIO WebSocket transport behind a real proxy on 127.0.0.1, and its refused upgrades. The
/// fake stream is named `exchange.test`, a name only the proxy resolves, so a message that
/// arrives proves the stream went through the proxy.
@Suite("Reach the streams through a proxy", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct ReachTheStreamsThroughAProxyUseCaseTests {
  @Test func connectProxy_tunnelsTheStreamToItsHostWithTheCredentialsOfItsURL() async throws {
    try await withProxy(.httpConnect, credentials: ("alice", "s3cret")) { proxy, server in
      let connector = connector(
        ProxySelector(
          explicit: proxy.url(userInfo: "alice:s3cret"), environment: [:]))

      let (messages, ending) = try await firstTrade(server, connector: connector)

      #expect(messages.contains(.text(FakeStreamMessage.coinbaseTicker(price: "68880.55"))))
      #expect(proxy.requests.map(\.target) == ["exchange.test:\(server.port)"])
      let expected = "Basic " + Data("alice:s3cret".utf8).base64EncodedString()
      #expect(proxy.requests.first?.proxyAuthorization == expected)
      #expect(ending == .closed(code: nil))
    }
  }

  @Test func wsProxyVariable_carriesAWsStream() async throws {
    try await withProxy(.httpConnect) { proxy, server in
      let connector = connector(
        ProxySelector(explicit: nil, environment: ["ws_proxy": proxy.url()]))

      let (messages, _) = try await firstTrade(server, connector: connector)

      #expect(messages.contains(.text(FakeStreamMessage.coinbaseTicker(price: "68880.55"))))
      #expect(proxy.requests.map(\.target) == ["exchange.test:\(server.port)"])
    }
  }

  @Test func socks5h_letsTheProxyResolveTheStreamsHost() async throws {
    try await withProxy(.socks5) { proxy, server in
      let connector = connector(ProxySelector(explicit: proxy.url(), environment: [:]))

      let (messages, _) = try await firstTrade(server, connector: connector)

      #expect(messages.contains(.text(FakeStreamMessage.coinbaseTicker(price: "68880.55"))))
      #expect(proxy.requests.map(\.target) == ["exchange.test:\(server.port)"])
    }
  }

  @Test func socks5h_withTheUserNameAndPasswordOfItsURL_carriesTheStream() async throws {
    try await withProxy(.socks5, credentials: ("alice", "s3cret")) { proxy, server in
      let connector = connector(
        ProxySelector(explicit: proxy.url(userInfo: "alice:s3cret"), environment: [:]))

      let (messages, _) = try await firstTrade(server, connector: connector)

      #expect(messages.contains(.text(FakeStreamMessage.coinbaseTicker(price: "68880.55"))))
      #expect(proxy.requests.map(\.target) == ["exchange.test:\(server.port)"])
    }
  }

  @Test func proxyRefusingTheConnect_endsTheStreamWithItsWords() async throws {
    try await withProxy(.httpConnect, behaviour: .refuse(status: 403)) { proxy, server in
      let connector = connector(ProxySelector(explicit: proxy.url(), environment: [:]))

      let ending = await connector.run(url: url(server), subscriptions: []) { _ in nil }

      #expect(
        ending
          == .unreachable(
            ProxyFailure.refused(proxy: "http://127.0.0.1:\(proxy.port)", status: 403)
              .description))
    }
  }

  @Test func proxyNobodyListensOn_isTheProxysFailure() async throws {
    // A port held bound but not listening refuses connections, and no server running in
    // parallel can take it (a port found free and let go could be).
    let port = try ReservedPort()
    defer { port.release() }
    let proxy = "http://127.0.0.1:\(port.number)"
    let connector = connector(ProxySelector(explicit: proxy, environment: [:]))

    let ending = await connector.run(
      url: URL(string: "ws://exchange.test:1/")!, subscriptions: []
    ) { _ in nil }

    #expect(
      ending
        == .unreachable(
          ProxyFailure.unreachable(proxy: proxy, reason: "it refused the connection").description))
  }

  @Test func noProxy_sendsTheStreamDirect() async throws {
    try await withProxy(.httpConnect) { proxy, server in
      let connector = connector(
        ProxySelector(
          explicit: nil, environment: ["ws_proxy": proxy.url(), "no_proxy": "127.0.0.1"]))

      let (messages, _) = try await firstTrade(
        server, connector: connector, url: server.url())

      #expect(messages.contains(.text(FakeStreamMessage.coinbaseTicker(price: "68880.55"))))
      #expect(proxy.requests.isEmpty)
    }
  }

  @Test(arguments: [451, 403, 418])
  func refusedUpgrade_keepsItsStatus(status: Int) async throws {
    let server = try await FakeStreamServer.start()
    server.behave(.refuseUpgradeWith(status: status))

    let ending = await connector(nil).run(url: server.url(), subscriptions: []) { _ in nil }
    await server.stop()

    #expect(
      ending
        == .handshakeFailed(
          status: status, reason: "the server refused to upgrade to WebSocket"))
  }

  @Test func refusedUpgrade_keepsItsRetryAfter() async throws {
    let server = try await FakeStreamServer.start()
    server.behave(.refuseUpgradeWith(status: 429, retryAfter: "120"))

    let ending = await connector(nil).run(url: server.url(), subscriptions: []) { _ in nil }
    await server.stop()

    #expect(
      ending
        == .handshakeFailed(
          status: 429, reason: "the server refused to upgrade to WebSocket",
          retryAfter: .seconds(120)))
  }

  @Test func refusedUpgradeThroughAProxy_keepsItsStatus() async throws {
    try await withProxy(.httpConnect) { proxy, server in
      server.behave(.refuseUpgradeWith(status: 451))
      let connector = connector(ProxySelector(explicit: proxy.url(), environment: [:]))

      let ending = await connector.run(url: url(server), subscriptions: []) { _ in nil }

      #expect(
        ending
          == .handshakeFailed(status: 451, reason: "the server refused to upgrade to WebSocket"))
      #expect(proxy.requests.count == 1)
    }
  }

  @Test func runnerOverNIO_restsARefusedStreamForItsRetryAfter() async throws {
    let server = try await FakeStreamServer.start()
    server.behave(.refuseUpgradeWith(status: 429, retryAfter: "30"))
    let events = Locked<[PriceStreamEvent]>([])
    let refusals = Locked<[PriceSourceError]>([])
    let runner = PriceStreamRunner(
      endpoint: try PriceSourceDefinition.binance.streamEndpoint(
        for: .usd, base: server.url(path: "/ws/btcusdt@trade")),
      connector: connector(nil),
      board: StreamPriceBoard(clock: ContinuousClock(), now: { Date() }),
      clock: ContinuousClock(), backoff: ReconnectBackoff(base: .milliseconds(20)),
      onRefusal: { cause, _ in refusals.append(cause) },
      onEvent: { event in events.append(event) })
    let task = Task { await runner.run() }

    await eventually(within: .seconds(5)) { !refusals.value.isEmpty }
    // Ten times the back-off's base: an ordinary failure would have been retried by now.
    try await Task.sleep(for: .milliseconds(200))

    #expect(
      refusals.value == [
        .rateLimited(
          status: 429, retryAfter: .seconds(30), message: "the stream's upgrade was refused")
      ])
    #expect(
      events.value.contains {
        if case .resting(.binance, .seconds(30), _) = $0 { true } else { false }
      })
    #expect(server.attempts == 1)
    task.cancel()
    await task.value
    await server.stop()
  }

  // MARK: Helpers

  private func connector(_ proxies: ProxySelector?) -> NIOWebSocketConnector {
    NIOWebSocketConnector(group: MultiThreadedEventLoopGroup.singleton, proxies: proxies)
  }

  /// The stream's URL under the name only the proxy resolves.
  private func url(_ server: FakeStreamServer) -> URL {
    URL(string: "ws://exchange.test:\(server.port)/")!
  }

  /// Subscribes to Coinbase's ticker, waits for the acknowledgement (the upgrade is done), has
  /// the server send a trade, and returns what arrived once it has, and how the run ended.
  private func firstTrade(
    _ server: FakeStreamServer, connector: NIOWebSocketConnector, url: URL? = nil
  ) async throws -> ([WebSocketInbound], PriceStreamError) {
    let endpoint = try PriceSourceDefinition.coinbase.streamEndpoint(
      for: .usd, base: url ?? self.url(server))
    let inbound = Locked<[WebSocketInbound]>([])
    let task = Task {
      await connector.run(url: endpoint.url, subscriptions: endpoint.subscriptions) { message in
        inbound.withValue { $0.append(message) }
        return nil
      }
    }
    await eventually(within: .seconds(5)) { inbound.value.count == 1 }
    server.send(FakeStreamMessage.coinbaseTicker(price: "68880.55"))
    await eventually(within: .seconds(5)) { inbound.value.count == 2 }
    task.cancel()
    let ending = await task.value
    return (inbound.value, ending)
  }

  private func withProxy(
    _ kind: FakeProxyServer.Kind, behaviour: FakeProxyServer.Behaviour = .tunnel,
    credentials: (String, String)? = nil,
    _ body: (FakeProxyServer, FakeStreamServer) async throws -> Void
  ) async throws {
    let server = try await FakeStreamServer.start()
    do {
      try await FakeProxyServer.withRunning(
        kind, behaviour: behaviour, credentials: credentials,
        hosts: ["exchange.test": "127.0.0.1"]
      ) { proxy in
        try await body(proxy, server)
      }
      await server.stop()
    } catch {
      await server.stop()
      throw error
    }
  }

}

/// A TCP port on 127.0.0.1 bound and not listening: connections to it are refused for as long as
/// it is held.
private struct ReservedPort {
  struct Failure: Error {}

  let descriptor: Int32
  let number: Int

  init() throws {
    #if canImport(Glibc)
      let stream = Int32(SOCK_STREAM.rawValue)
    #else
      let stream = SOCK_STREAM
    #endif
    let descriptor = socket(AF_INET, stream, 0)
    guard descriptor >= 0 else { throw Failure() }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
        bind(descriptor, socketAddress, length) == 0
          && getsockname(descriptor, socketAddress, &length) == 0
      }
    }
    guard bound else {
      close(descriptor)
      throw Failure()
    }
    self.descriptor = descriptor
    self.number = Int(UInt16(bigEndian: address.sin_port))
  }

  func release() {
    close(descriptor)
  }
}
