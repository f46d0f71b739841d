import BTCPriceSources
import NIOCore
import NIOPosix

/// The step between "connected to the proxy" and "talking to the target", for any SwiftNIO
/// client: the HTTP client here, and WebSocket streams.
///
/// Use it with a bootstrap that connects to the proxy rather than to the target:
///
///     let route = try selector.route(for: url)          // nil: connect directly
///     let (host, port) = route.map { ($0.proxy.host, $0.proxy.port) } ?? (target, targetPort)
///     ClientBootstrap(group: loop).connect(host: host, port: port).flatMap { channel in
///       ProxyTunnel.open(on: channel, to: target, port: targetPort, via: route?.proxy)
///         .flatMapThrowing { try addTLSAndYourProtocol(channel) }
///     }
///
/// When the future succeeds the bytes written on `channel` reach the target: add TLS (with the
/// target's name for SNI and verification) and the protocol handlers at the end of the pipeline.
/// HTTP proxies get a CONNECT for every scheme (as curl's `--proxytunnel`), with
/// `Proxy-Authorization: Basic` from the proxy URL's user info; socks5h:// sends the host name
/// to the proxy, socks5:// resolves it here first, both with the URL's user name and password
/// when it has them (``SOCKS5ClientHandshake``). Failures are ``ProxyFailure``s (refusals in
/// words) or the channel's own errors; on failure the channel is closed.
public enum ProxyTunnel {
  public static func open(
    on channel: any Channel, to host: String, port: Int, via proxy: ProxyEndpoint?
  ) -> EventLoopFuture<Void> {
    let loop = channel.eventLoop
    guard let proxy else { return loop.makeSucceededVoidFuture() }
    let promise = loop.makePromise(of: Void.self)
    promise.futureResult.whenFailure { _ in channel.close(promise: nil) }
    switch proxy.kind {
    case .http:
      onLoop(channel, promise) {
        HTTPConnectTunnelHandler(host: host, port: port, proxy: proxy, promise: promise)
      }
    case .socks5h:
      onLoop(channel, promise) {
        SOCKS5ClientHandshake(target: .domain(host, port: port), proxy: proxy, promise: promise)
      }
    case .socks5:
      NIOThreadPool.singleton.runIfActive(eventLoop: loop) {
        try SocketAddress.makeAddressResolvingHost(host, port: port)
      }.whenComplete { result in
        switch result {
        case .success(let address):
          onLoop(channel, promise) {
            SOCKS5ClientHandshake(target: .address(address), proxy: proxy, promise: promise)
          }
        case .failure:
          promise.fail(BTCHTTPClientError.hostNotFound)
        }
      }
    }
    return promise.futureResult
  }

  /// Adds a handler made on the channel's loop: handlers are not Sendable.
  private static func onLoop(
    _ channel: any Channel, _ promise: EventLoopPromise<Void>,
    _ make: @escaping @Sendable () -> any ChannelHandler
  ) {
    let add: @Sendable () -> Void = {
      do {
        try channel.pipeline.syncOperations.addHandler(make())
      } catch {
        promise.fail(error)
      }
    }
    if channel.eventLoop.inEventLoop { add() } else { channel.eventLoop.execute(add) }
  }
}
