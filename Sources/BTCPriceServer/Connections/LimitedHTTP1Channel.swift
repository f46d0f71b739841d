import BTCPriceCore
import HummingbirdCore
import Logging
import NIOCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Hummingbird's HTTP/1 child channel behind a ``ConnectionLimiter``: a connection over the limit
/// gets `503` with `Retry-After` and is closed before any of its bytes are parsed.
struct LimitedHTTP1Channel: ServerChildChannel {
  typealias Value = HTTP1Channel.Value

  let inner: HTTP1Channel
  let limiter: ConnectionLimiter

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    let address = channel.remoteAddress?.ipAddress ?? "unknown"
    if limiter.open(address) {
      channel.closeFuture.whenComplete { _ in limiter.close(address) }
    } else {
      logger.notice("refusing a connection from \(address): over the per-address limit")
      do {
        try channel.pipeline.syncOperations.addHandler(RefuseConnectionHandler(), position: .first)
      } catch {
        channel.close(promise: nil)
      }
    }
    return inner.setup(channel: channel, logger: logger)
  }

  func handle(value: Value, logger: Logger) async {
    await inner.handle(value: value, logger: logger)
  }
}

/// Answers 503 at once, ignores whatever the client sends, and closes.
private final class RefuseConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer

  private static let body = "Too many connections from your address.\n"
  private static let response =
    "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
    + "Content-Length: \(body.utf8.count)\r\nRetry-After: 10\r\nConnection: close\r\n\r\n" + body
  private var refused = false

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { refuse(context) }
  }

  func channelActive(context: ChannelHandlerContext) {
    refuse(context)
    context.fireChannelActive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

  private func refuse(_ context: ChannelHandlerContext) {
    guard !refused else { return }
    refused = true
    context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: Self.response)), promise: nil)
    context.close(promise: nil)
  }
}
