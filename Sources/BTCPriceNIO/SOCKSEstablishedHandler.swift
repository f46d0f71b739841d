import BTCPriceNetworking
import NIOCore
import NIOSOCKS

/// Sits after NIOSOCKS's `SOCKSClientHandler` and completes `promise` once: when the proxy has
/// connected to the target, or with a ``ProxyFailure`` in words when it refused or hung up.
final class SOCKSEstablishedHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer

  private let proxy: ProxyEndpoint
  private let promise: EventLoopPromise<Void>
  private var done = false

  init(proxy: ProxyEndpoint, promise: EventLoopPromise<Void>) {
    self.proxy = proxy
    self.promise = promise
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    guard event is SOCKSProxyEstablishedEvent, !done else {
      return context.fireUserInboundEventTriggered(event)
    }
    done = true
    context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    promise.succeed()
  }

  func channelInactive(context: ChannelHandlerContext) {
    fail(context: context, ProxyFailure.closedTunnel(proxy: proxy.redacted))
    context.fireChannelInactive()
  }

  /// A channel that closes before it was ever active (the proxy refused the TCP connection, when
  /// the handlers were added before connecting, as the streams do) removes its handlers without
  /// any other event: the promise must still be completed, or its waiters would never hear.
  func handlerRemoved(context: ChannelHandlerContext) {
    guard !done else { return }
    done = true
    promise.fail(ProxyFailure.closedTunnel(proxy: proxy.redacted))
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    guard !done else { return context.fireErrorCaught(error) }
    fail(context: context, Self.words(for: error, proxy: proxy.redacted))
  }

  private func fail(context: ChannelHandlerContext, _ error: any Error) {
    guard !done else { return }
    done = true
    promise.fail(error)
    context.close(promise: nil)
  }

  /// RFC 1928's reply codes, in words.
  static func words(for error: any Error, proxy: String) -> any Error {
    switch error {
    case let error as SOCKSError.ConnectionFailed:
      let reason: String
      switch error.reply {
      case .notAllowed: reason = "connection not allowed by its rules"
      case .networkUnreachable: reason = "network unreachable"
      case .hostUnreachable: reason = "host unreachable (or not found)"
      case .refused: reason = "connection refused by the source"
      case .ttlExpired: reason = "TTL expired"
      case .commandUnsupported: reason = "it does not support CONNECT"
      case .addressUnsupported: reason = "it does not support this kind of address"
      default: reason = "general failure (reply \(error.reply.value))"
      }
      return ProxyFailure.socksRefused(proxy: proxy, reason: reason)
    case is SOCKSError.NoValidAuthenticationMethod, is SOCKSError.InvalidAuthenticationSelection:
      return ProxyFailure.socksRefused(
        proxy: proxy, reason: "it wants authentication, which this tool does not do for SOCKS")
    case is SOCKSError.InvalidProtocolVersion:
      return ProxyFailure.socksRefused(proxy: proxy, reason: "it does not speak SOCKS5")
    default:
      return error
    }
  }
}
