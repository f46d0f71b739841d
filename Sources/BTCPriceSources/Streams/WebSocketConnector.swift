import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What a WebSocket connection hands its reader.
public enum WebSocketInbound: Equatable, Sendable {
  /// A complete text message (one unfragmented, uncompressed frame of valid UTF-8).
  case text(String)
  /// A ping the transport has already answered: the server is there.
  case ping
}

/// The transport a price stream runs on: SwiftNIO in the command-line tool, `URLSession` in the
/// app. It owns the socket and the protocol rules (frame size, fragments, compression, UTF-8,
/// pongs); everything that decides anything is in ``PriceStreamRunner``.
public protocol WebSocketConnector: Sendable {
  /// Opens `url`, sends each of `subscriptions` as a text message, then hands every inbound
  /// message to `onInbound` until the connection ends, `onInbound` returns an error (the
  /// connection is then closed), or the task is cancelled (closed too).
  ///
  /// - Returns: why the connection ended.
  func run(
    url: URL, subscriptions: [String],
    onInbound: @escaping @Sendable (WebSocketInbound) -> PriceStreamError?
  ) async -> PriceStreamError

  /// ``run(url:subscriptions:onInbound:)``, also telling `onReceived` how long before it was
  /// read each message reached the machine. A connector that reads on the tick reads a message
  /// up to a tick after it came, and the board must date it when it came: a stream that has just
  /// fallen silent would otherwise look alive a tick too long. Connectors that read each message
  /// as it arrives say zero (the default).
  func run(
    url: URL, subscriptions: [String],
    onReceived: @escaping @Sendable (WebSocketInbound, _ receivedAgo: Duration) -> PriceStreamError?
  ) async -> PriceStreamError

  /// ``run(url:subscriptions:onReceived:)``, also sending each text `outbound` yields, after the
  /// subscriptions, until the connection ends: what the runner says on a quiet connection to keep
  /// it open (OKX's `ping`, Bitstamp's `bts:heartbeat`). Connectors that cannot send (test doubles
  /// that play a script) leave them unsent: the default.
  func run(
    url: URL, subscriptions: [String], outbound: AsyncStream<String>,
    onReceived: @escaping @Sendable (WebSocketInbound, _ receivedAgo: Duration) -> PriceStreamError?
  ) async -> PriceStreamError

  /// Reads what the open connections have buffered, for a connector that reads only when asked
  /// (the command line's, on the tick: one wake-up a tick instead of one a message); returns
  /// once it is read. Connectors that read each message as it arrives return at once.
  func drain() async
}

extension WebSocketConnector {
  public func drain() async {}

  public func run(
    url: URL, subscriptions: [String],
    onReceived: @escaping @Sendable (WebSocketInbound, _ receivedAgo: Duration) -> PriceStreamError?
  ) async -> PriceStreamError {
    await run(url: url, subscriptions: subscriptions) { onReceived($0, .zero) }
  }

  public func run(
    url: URL, subscriptions: [String], outbound: AsyncStream<String>,
    onReceived: @escaping @Sendable (WebSocketInbound, _ receivedAgo: Duration) -> PriceStreamError?
  ) async -> PriceStreamError {
    await run(url: url, subscriptions: subscriptions, onReceived: onReceived)
  }
}

/// Where a `ws://` or `wss://` URL points: the one check every ``WebSocketConnector`` makes
/// before it opens anything.
public struct WebSocketTarget: Equatable, Sendable {
  public let host: String
  public let port: Int
  /// `wss://`: TLS first.
  public let secure: Bool

  public init(host: String, port: Int, secure: Bool) {
    self.host = host
    self.port = port
    self.secure = secure
  }

  /// The target of `url`, or the error a connector returns for a URL that is not a WebSocket's.
  public static func of(_ url: URL) -> Result<WebSocketTarget, PriceStreamError> {
    guard let scheme = url.scheme?.lowercased(), scheme == "ws" || scheme == "wss",
      let host = url.host, !host.isEmpty
    else {
      return .failure(.unreachable("not a ws:// or wss:// URL: \(url.absoluteString)"))
    }
    let secure = scheme == "wss"
    return .success(
      WebSocketTarget(host: host, port: url.port ?? (secure ? 443 : 80), secure: secure))
  }
}
