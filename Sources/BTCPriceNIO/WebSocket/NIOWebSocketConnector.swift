import BTCPriceCore
import BTCPriceSources
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The command-line tool's WebSocket transport for the price streams, on SwiftNIO's WebSocket
/// codec and NIOSSL for `wss`.
///
/// It negotiates no extension (so no compression), reads frames up to
/// ``PriceStreamEndpoint/maximumMessageSize`` (a larger frame is refused from its header, before
/// its body is read), and ends the connection with a typed ``PriceStreamError`` on a fragmented,
/// compressed or binary frame, text that is not UTF-8, a close frame or a reset. Pings are
/// answered with their payload at once (Binance cuts a connection that does not pong within a
/// minute). Frames are read on the connection's event loop by ``WebSocketFrameReader``, with no
/// hop to another thread per message. Everything that decides anything is in
/// ``PriceStreamRunner``.
///
/// Streams take the same way out as the REST requests: the ``ProxySelector`` the HTTP client
/// uses (`wss://` reads `wss_proxy`, then the https variables; `ws://` reads `ws_proxy`, then
/// `http_proxy`; then `all_proxy`; `no_proxy` sends a host direct), through ``ProxyTunnel`` (HTTP
/// CONNECT with the proxy URL's credentials, SOCKS5), and the same ``TrustSource`` for TLS (a
/// company proxy that inspects TLS signs the exchange's certificate with its own authority).
/// A refused upgrade keeps its HTTP status and `Retry-After`, so the runner can respect it.
///
/// With `readOnTick`, an upgraded connection reads nothing on its own: ``drain()`` (the tick,
/// through ``PriceStreamSet/drain()``) reads what every open connection has buffered, so a
/// second of running costs two wake-ups a connection whatever the trade rate
/// (``WebSocketFrameReader``).
public final class NIOWebSocketConnector: WebSocketConnector {
  /// The channel of a connection, for closing it when the task is cancelled.
  private enum Opened: Sendable {
    case connecting
    case open(any Channel)
    case cancelled
  }

  enum Upgrade: Sendable {
    /// Upgraded: the ``WebSocketFrameReader`` that reads it, on its loop.
    case websocket(NIOLoopBound<WebSocketFrameReader>)
    case notUpgraded
  }

  private let group: any EventLoopGroup
  private let connectTimeout: TimeAmount
  private let maximumFrameSize: Int
  private let proxies: ProxySelector?
  private let tls: ClientTLS
  private let onUpgrade: (@Sendable () -> Void)?
  private let readOnTick: Bool
  private let drainBound: TimeAmount
  /// The upgraded connections a drain reads, by a number of their own.
  private let readers = NIOLockedValueBox<
    (next: Int, open: [Int: NIOLoopBound<WebSocketFrameReader>])
  >(
    (0, [:]))

  /// - Parameters:
  ///   - group: where the connections run (the tool's one event loop).
  ///   - connectTimeout: for the TCP connection alone (to the proxy, when there is one); the
  ///     runner's watchdog bounds the rest.
  ///   - proxies: which proxy each stream goes through; nil: always direct.
  ///   - trust: the certificate authorities `wss` connections trust (``ClientTLS``).
  ///   - onUpgrade: told when a connection has been upgraded, before any message (`doctor`
  ///     tells "no upgrade" from "upgraded, then silent").
  ///   - readOnTick: once upgraded and subscribed, read frames only when ``drain()`` asks;
  ///     off: read each frame as it arrives.
  ///   - drainBound: the longest a drain waits for bytes the kernel holds to be read. The loop
  ///     reads them within microseconds, but a loaded machine can stall its thread for
  ///     milliseconds, and a drain that gave up then would leave the tick without the messages
  ///     of its second (read on the tick, nothing else reads them). A drain with nothing to read
  ///     does not wait at all.
  public convenience init(
    group: any EventLoopGroup, connectTimeout: Duration = .seconds(5),
    maximumFrameSize: Int = PriceStreamEndpoint.maximumMessageSize,
    proxies: ProxySelector? = nil, trust: TrustSource = .system,
    readOnTick: Bool = false, drainBound: Duration = .milliseconds(50),
    onUpgrade: (@Sendable () -> Void)? = nil
  ) {
    self.init(
      group: group, connectTimeout: connectTimeout, maximumFrameSize: maximumFrameSize,
      proxies: proxies, tls: ClientTLS(trust: trust), readOnTick: readOnTick,
      drainBound: drainBound, onUpgrade: onUpgrade)
  }

  /// - Parameter tls: the TLS context, one for the run (the HTTP client shares it).
  public init(
    group: any EventLoopGroup, connectTimeout: Duration = .seconds(5),
    maximumFrameSize: Int = PriceStreamEndpoint.maximumMessageSize,
    proxies: ProxySelector? = nil, tls: ClientTLS,
    readOnTick: Bool = false, drainBound: Duration = .milliseconds(50),
    onUpgrade: (@Sendable () -> Void)? = nil
  ) {
    self.group = group
    self.readOnTick = readOnTick
    self.drainBound = TimeAmount(drainBound)
    self.proxies = proxies
    self.tls = tls
    self.onUpgrade = onUpgrade
    self.connectTimeout = TimeAmount(connectTimeout)
    self.maximumFrameSize = maximumFrameSize
  }

  public func run(
    url: URL, subscriptions: [String],
    onInbound: @escaping @Sendable (WebSocketInbound) -> PriceStreamError?
  ) async -> PriceStreamError {
    await run(url: url, subscriptions: subscriptions) { inbound, _ in onInbound(inbound) }
  }

  public func run(
    url: URL, subscriptions: [String],
    onReceived onInbound: @escaping @Sendable (WebSocketInbound, Duration) -> PriceStreamError?
  ) async -> PriceStreamError {
    await run(
      url: url, subscriptions: subscriptions, outbound: AsyncStream { $0.finish() },
      onReceived: onInbound)
  }

  public func run(
    url: URL, subscriptions: [String], outbound: AsyncStream<String>,
    onReceived onInbound: @escaping @Sendable (WebSocketInbound, Duration) -> PriceStreamError?
  ) async -> PriceStreamError {
    let host: String
    let port: Int
    let secure: Bool
    switch WebSocketTarget.of(url) {
    case .success(let target): (host, port, secure) = (target.host, target.port, target.secure)
    case .failure(let error): return error
    }
    let route: ProxySelector.Route?
    do {
      route = try proxies?.route(for: url)
    } catch {
      return .unreachable(
        ProxyFailure.unsupported(proxy: "in the settings", reason: error.description).description)
    }
    let opened = NIOLockedValueBox(Opened.connecting)
    let answer = NIOLockedValueBox<UpgradeResponseRecorder.Answer?>(nil)
    return await withTaskCancellationHandler {
      do {
        let upgrade = try await connect(
          host: host, port: port, secure: secure, target: Self.target(of: url),
          proxy: route?.proxy, opened: opened, answer: answer, subscriptions: subscriptions,
          onInbound: onInbound)
        guard case .websocket(let reader) = try await upgrade.get() else {
          return Self.refusal(answer.withLockedValue { $0 })
        }
        onUpgrade?()
        let key =
          readOnTick
          ? readers.withLockedValue { readers in
            defer { readers.next += 1 }
            readers.open[readers.next] = reader
            return readers.next
          } : nil
        defer { if let key { readers.withLockedValue { _ = $0.open.removeValue(forKey: key) } } }
        let ended = reader.eventLoop.flatSubmit { reader.value.subscribe() }
        return try await withThrowingTaskGroup(of: Void.self) { group in
          // Rare (a keep-alive on a quiet connection), so a task that waits for them costs
          // nothing while the connection talks; each is written on the connection's loop.
          group.addTask {
            for await text in outbound {
              reader.eventLoop.execute { reader.value.send(text) }
            }
          }
          defer { group.cancelAll() }
          return try await ended.get()
        }
      } catch let error as PriceStreamError {
        return error
      } catch let error as ProxyFailure {
        return .unreachable(error.description)
      } catch NIOWebSocketError.invalidFrameLength {
        return .frameTooLarge(limit: maximumFrameSize)
      } catch let error as NIOWebSocketError {
        return .protocolViolation("\(error)")
      } catch {
        if Task.isCancelled { return .closed(code: nil) }
        return .unreachable(Self.words(for: error, proxy: route?.proxy))
      }
    } onCancel: {
      // Cancelled while connecting: the channel, once there, is closed at once (see connect).
      let channel = opened.withLockedValue { state -> (any Channel)? in
        defer { state = .cancelled }
        if case .open(let channel) = state { return channel }
        return nil
      }
      channel?.close(promise: nil)
    }
  }

  private func connect(
    host: String, port: Int, secure: Bool, target: String, proxy: ProxyEndpoint?,
    opened: NIOLockedValueBox<Opened>, answer: NIOLockedValueBox<UpgradeResponseRecorder.Answer?>,
    subscriptions: [String],
    onInbound: @escaping @Sendable (WebSocketInbound, Duration) -> PriceStreamError?
  ) async throws -> EventLoopFuture<Upgrade> {
    let tls = secure ? try await self.tls.context(on: group.next()).get() : nil
    // An IP address is no server name for SNI (NIOSSL refuses it).
    let serverName =
      host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." } ? nil : host
    let maximumFrameSize = maximumFrameSize
    let readOnTick = readOnTick
    let hostHeader = (port == 443 && secure) || (port == 80 && !secure) ? host : "\(host):\(port)"
    let upgradeHandlers: @Sendable (any Channel) throws -> EventLoopFuture<Upgrade> = { channel in
      try Self.addUpgradeHandlers(
        to: channel, tls: tls, serverName: serverName, host: host, hostHeader: hostHeader,
        target: target, maximumFrameSize: maximumFrameSize, readOnTick: readOnTick,
        subscriptions: subscriptions, answer: answer, onInbound: onInbound)
    }
    // Through a proxy the TCP connection goes to the proxy; the tunnel's handlers are added
    // before it is up and open the tunnel once it is, then TLS and the upgrade follow inside it.
    let (connectHost, connectPort) = proxy.map { ($0.host, $0.port) } ?? (host, port)
    return try await ClientBootstrap(group: group)
      .connectTimeout(connectTimeout)
      .channelOption(.tcpOption(.tcp_nodelay), value: 1)
      .lookingUpNamesOffDispatch(on: group.next())
      .connect(host: connectHost, port: connectPort) { channel in
        channel.eventLoop.makeCompletedFuture {
          let cancelled = opened.withLockedValue { state in
            if case .cancelled = state { return true }
            state = .open(channel)
            return false
          }
          if cancelled { throw CancellationError() }
          guard let proxy else { return try upgradeHandlers(channel) }
          return ProxyTunnel.open(on: channel, to: host, port: port, via: proxy)
            .flatMapThrowing { try upgradeHandlers(channel) }
            .flatMap { $0 }
        }
      }
  }

  /// The handlers of a stream connection once it reaches the exchange (through the tunnel, when
  /// there is a proxy): TLS for `wss`, the HTTP upgrade with its recorder, and, once upgraded,
  /// the ``WebSocketFrameReader``. Internal, not private: the `websocket` fuzz target feeds this
  /// very pipeline.
  static func addUpgradeHandlers(
    to channel: any Channel, tls: NIOSSLContext?, serverName: String?, host: String,
    hostHeader: String, target: String, maximumFrameSize: Int, readOnTick: Bool,
    subscriptions: [String], answer: NIOLockedValueBox<UpgradeResponseRecorder.Answer?>,
    onInbound: @escaping @Sendable (WebSocketInbound, Duration) -> PriceStreamError?
  ) throws -> EventLoopFuture<Upgrade> {
    if let tls {
      // The HTTP client's TLS handlers: a refused certificate is said in words (an unknown
      // authority points to --ca-file, a wrong host names the certificate's hosts), not as
      // NIOSSL's error text.
      let observer = TLSCertificateObserver()
      try channel.pipeline.syncOperations.addHandler(
        observer.makeHandler(context: tls, serverName: serverName))
      try channel.pipeline.syncOperations.addHandler(
        TLSFailureExplainer(observer: observer, host: host))
    }
    let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(
      maxFrameSize: maximumFrameSize,
      // Our own errors, not a close frame sent for us: an oversized frame must end the read
      // with its typed error, not with what looks like a server's close.
      enableAutomaticErrorHandling: false,
      upgradePipelineHandler: { channel, _ in
        channel.eventLoop.makeCompletedFuture {
          let reader = WebSocketFrameReader(
            ended: channel.eventLoop.makePromise(), subscriptions: subscriptions,
            maximumFrameSize: maximumFrameSize, readOnTick: readOnTick, onInbound: onInbound)
          try channel.pipeline.syncOperations.addHandler(reader)
          return .websocket(NIOLoopBound(reader, eventLoop: channel.eventLoop))
        }
      })
    var headers = HTTPHeaders()
    headers.add(name: "Host", value: hostHeader)
    headers.add(name: "User-Agent", value: BTCPriceVersion.userAgent)
    let configuration = NIOTypedHTTPClientUpgradeConfiguration(
      upgradeRequestHead: HTTPRequestHead(
        version: .http1_1, method: .GET, uri: target, headers: headers),
      upgraders: [upgrader],
      notUpgradingCompletionHandler: { channel in
        channel.eventLoop.makeCompletedFuture { .notUpgraded }
      })
    // The bytes that came in the same read as the `101` are the first frames: handed on, not
    // dropped (SwiftNIO's default drops them, which lost a small first frame and cut a large
    // one in two, so that its rest was read as a frame of its own).
    var pipeline = NIOUpgradableHTTPClientPipelineConfiguration(
      upgradeConfiguration: configuration)
    pipeline.leftOverBytesStrategy = .forwardBytes
    let upgrade = try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
      configuration: pipeline)
    let upgradeHandler = try channel.pipeline.syncOperations.handler(
      type: NIOTypedHTTPClientUpgradeHandler<Upgrade>.self)
    try channel.pipeline.syncOperations.addHandler(
      UpgradeResponseRecorder(answer: answer), position: .before(upgradeHandler))
    return upgrade
  }

  /// Reads what every open connection has buffered (see
  /// ``WebSocketFrameReader/drain(within:then:)``); returns at once without `readOnTick`. A
  /// reader on the caller's own loop (the tick's, in the tool) is asked at once, the others on
  /// their loops; one continuation waits for all of them, no future.
  public func drain() async {
    let open = readers.withLockedValue { Array($0.open.values) }
    guard !open.isEmpty else { return }
    let bound = drainBound
    await withCheckedContinuation { (drained: CheckedContinuation<Void, Never>) in
      let left = NIOLockedValueBox(open.count)
      let done: @Sendable () -> Void = {
        if left.withLockedValue({ left in
          left -= 1
          return left == 0
        }) {
          drained.resume()
        }
      }
      for reader in open {
        if reader.eventLoop.inEventLoop {
          reader.value.drain(within: bound, then: done)
        } else {
          reader.eventLoop.execute { reader.value.drain(within: bound, then: done) }
        }
      }
    }
  }

  /// The typed error of an upgrade that did not happen: the server's refusal with its status and
  /// `Retry-After` when it answered, else "no upgrade".
  private static func refusal(_ answer: UpgradeResponseRecorder.Answer?) -> PriceStreamError {
    guard let answer else {
      return .handshakeFailed(status: nil, reason: "the server did not upgrade to WebSocket")
    }
    let retryAfter = answer.retryAfter.flatMap { RetryAfter.parse($0, now: Date()) }
    return .handshakeFailed(
      status: answer.status, reason: "the server refused to upgrade to WebSocket",
      retryAfter: retryAfter)
  }

  /// A connection failure in words, as the HTTP client says them. Through a proxy, failing to
  /// connect at all is the proxy's failure (the source's own refusals come back as the proxy's
  /// answer to CONNECT or SOCKS), and is said so.
  private static func words(for error: any Error, proxy: ProxyEndpoint?) -> String {
    let mapped = NIOHTTPClient.map(error)
    guard let proxy else { return String(describing: mapped) }
    let reason: String
    switch mapped {
    case BTCHTTPClientError.hostNotFound: reason = "its host name was not found"
    case BTCHTTPClientError.connectionRefused: reason = "it refused the connection"
    case BTCHTTPClientError.timedOut: reason = "it did not answer"
    default: return String(describing: mapped)
    }
    return ProxyFailure.unreachable(proxy: proxy.redacted, reason: reason).description
  }

  /// The request target: the URL's path (`/` if empty) and query.
  private static func target(of url: URL) -> String {
    let path = url.path.isEmpty ? "/" : url.path
    return url.query.map { "\(path)?\($0)" } ?? path
  }
}
