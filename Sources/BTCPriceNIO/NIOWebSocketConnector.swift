import BTCPriceCore
import BTCPriceNetworking
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
public final class NIOWebSocketConnector: WebSocketConnector {
  /// The channel of a connection, for closing it when the task is cancelled.
  private enum Opened: Sendable {
    case connecting
    case open(any Channel)
    case cancelled
  }

  private enum Upgrade: Sendable {
    /// Upgraded: the ``WebSocketFrameReader`` that reads it, on its loop.
    case websocket(NIOLoopBound<WebSocketFrameReader>)
    case notUpgraded
  }

  private let group: any EventLoopGroup
  private let connectTimeout: TimeAmount
  private let maximumFrameSize: Int
  private let tls = NIOLockedValueBox<NIOSSLContext?>(nil)

  /// - Parameters:
  ///   - group: where the connections run (the tool's one event loop).
  ///   - connectTimeout: for the TCP connection alone; the runner's watchdog bounds the rest.
  public init(
    group: any EventLoopGroup, connectTimeout: Duration = .seconds(5),
    maximumFrameSize: Int = PriceStreamEndpoint.maximumMessageSize
  ) {
    self.group = group
    self.connectTimeout = .nanoseconds(
      connectTimeout.components.seconds * 1_000_000_000 + connectTimeout.components.attoseconds
        / 1_000_000_000)
    self.maximumFrameSize = maximumFrameSize
  }

  public func run(
    url: URL, subscriptions: [String],
    onInbound: @escaping @Sendable (WebSocketInbound) -> PriceStreamError?
  ) async -> PriceStreamError {
    guard let scheme = url.scheme?.lowercased(), scheme == "ws" || scheme == "wss",
      let host = url.host, !host.isEmpty
    else {
      return .unreachable("not a ws:// or wss:// URL: \(url.absoluteString)")
    }
    let secure = scheme == "wss"
    let port = url.port ?? (secure ? 443 : 80)
    let opened = NIOLockedValueBox(Opened.connecting)
    return await withTaskCancellationHandler {
      do {
        let upgrade = try await connect(
          host: host, port: port, secure: secure, target: Self.target(of: url), opened: opened,
          subscriptions: subscriptions, onInbound: onInbound)
        guard case .websocket(let reader) = try await upgrade.get() else {
          return .handshakeFailed(status: nil, reason: "the server did not upgrade to WebSocket")
        }
        return try await reader.eventLoop.flatSubmit { reader.value.subscribe() }.get()
      } catch let error as PriceStreamError {
        return error
      } catch NIOWebSocketError.invalidFrameLength {
        return .frameTooLarge(limit: maximumFrameSize)
      } catch let error as NIOWebSocketError {
        return .protocolViolation("\(error)")
      } catch {
        if Task.isCancelled { return .closed(code: nil) }
        return .unreachable(String(describing: error))
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
    host: String, port: Int, secure: Bool, target: String,
    opened: NIOLockedValueBox<Opened>, subscriptions: [String],
    onInbound: @escaping @Sendable (WebSocketInbound) -> PriceStreamError?
  ) async throws -> EventLoopFuture<Upgrade> {
    let tls = secure ? try tlsContext() : nil
    // An IP address is no server name for SNI (NIOSSL refuses it).
    let serverName =
      host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." } ? nil : host
    let maximumFrameSize = maximumFrameSize
    let hostHeader = (port == 443 && secure) || (port == 80 && !secure) ? host : "\(host):\(port)"
    return try await ClientBootstrap(group: group)
      .connectTimeout(connectTimeout)
      .channelOption(.tcpOption(.tcp_nodelay), value: 1)
      .connect(host: host, port: port) { channel in
        channel.eventLoop.makeCompletedFuture {
          let cancelled = opened.withLockedValue { state in
            if case .cancelled = state { return true }
            state = .open(channel)
            return false
          }
          if cancelled { throw CancellationError() }
          if let tls {
            try channel.pipeline.syncOperations.addHandler(
              NIOSSLClientHandler(context: tls, serverHostname: serverName))
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
                  maximumFrameSize: maximumFrameSize, onInbound: onInbound)
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
          return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
            configuration: .init(upgradeConfiguration: configuration))
        }
      }
  }

  /// Sends the subscriptions, then reads frames until the connection ends or a frame is refused.
  private static func target(of url: URL) -> String {
    let path = url.path.isEmpty ? "/" : url.path
    return url.query.map { "\(path)?\($0)" } ?? path
  }

  private func tlsContext() throws -> NIOSSLContext {
    try tls.withLockedValue { tls in
      if let context = tls { return context }
      let context = try NIOSSLContext(configuration: .makeClientConfiguration())
      tls = context
      return context
    }
  }
}
