import BTCPriceSources
import NIOCore

/// Opens an HTTP CONNECT tunnel on a fresh connection to a proxy, then removes itself, so that
/// what is added after it (TLS, HTTP, WebSocket) talks to the target through the tunnel.
///
/// Completes `promise` once: with success on a 2xx answer, with a ``ProxyFailure`` otherwise
/// (407, 403 and any other status, or the proxy closing the connection first).
final class HTTPConnectTunnelHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer
  typealias OutboundOut = ByteBuffer

  /// A proxy's answer head is a few hundred bytes; more without its end is not an HTTP proxy.
  private static let maxHeadSize = 16 * 1024

  private let target: String
  private let proxy: ProxyEndpoint
  private let promise: EventLoopPromise<Void>
  private var received: ByteBuffer?
  private var sent = false
  private var done = false

  init(host: String, port: Int, proxy: ProxyEndpoint, promise: EventLoopPromise<Void>) {
    self.target = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    self.proxy = proxy
    self.promise = promise
  }

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { sendConnect(context: context) }
  }

  func channelActive(context: ChannelHandlerContext) {
    sendConnect(context: context)
    context.fireChannelActive()
  }

  private func sendConnect(context: ChannelHandlerContext) {
    guard !sent else { return }
    sent = true
    var head = "CONNECT \(target) HTTP/1.1\r\nHost: \(target)\r\n"
    if let credentials = proxy.proxyAuthorization {
      head += "Proxy-Authorization: \(credentials)\r\n"
    }
    head += "\r\n"
    // A failed write closes the channel, which channelInactive reports.
    context.writeAndFlush(
      wrapOutboundOut(context.channel.allocator.buffer(string: head)), promise: nil)
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard !done else { return context.fireChannelRead(data) }
    var part = unwrapInboundIn(data)
    received.setOrWriteBuffer(&part)
    guard var buffer = received else { return }
    let bytes = buffer.readableBytesView
    guard let end = Self.endOfHead(bytes) else {
      if bytes.count > Self.maxHeadSize { fail(context: context, closedTunnel) }
      return
    }
    let head = buffer.readString(length: end) ?? ""
    let status = Self.status(head)
    guard let status, (200..<300).contains(status) else {
      let failure: ProxyFailure =
        status == 407
        ? .authenticationRequired(proxy: proxy.redacted, sentCredentials: proxy.username != nil)
        : status.map { .refused(proxy: proxy.redacted, status: $0) } ?? closedTunnel
      return fail(context: context, failure)
    }
    done = true
    received = nil
    // The tunnel's user adds its handlers when the promise succeeds; bytes after the head
    // already belong to the target (a server that speaks first), and so to them.
    promise.succeed()
    if buffer.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(buffer)) }
    context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
  }

  func channelInactive(context: ChannelHandlerContext) {
    fail(context: context, closedTunnel)
    context.fireChannelInactive()
  }

  /// A channel that closes before it was ever active (the proxy refused the TCP connection, when
  /// the handlers were added before connecting, as the streams do) removes its handlers without
  /// any other event: the promise must still be completed, or its waiters would never hear.
  func handlerRemoved(context: ChannelHandlerContext) {
    guard !done else { return }
    done = true
    promise.fail(closedTunnel)
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    guard !done else { return context.fireErrorCaught(error) }
    fail(context: context, error)
  }

  private var closedTunnel: ProxyFailure { .closedTunnel(proxy: proxy.redacted) }

  private func fail(context: ChannelHandlerContext, _ error: any Error) {
    guard !done else { return }
    done = true
    promise.fail(error)
    context.close(promise: nil)
  }

  /// The offset just past the blank line that ends the head, if it has arrived.
  private static func endOfHead(_ bytes: ByteBufferView) -> Int? {
    let crlfcrlf: [UInt8] = [13, 10, 13, 10]
    guard bytes.count >= 4 else { return nil }
    var index = bytes.startIndex
    while index + 4 <= bytes.endIndex {
      if bytes[index..<(index + 4)].elementsEqual(crlfcrlf) {
        return index + 4 - bytes.startIndex
      }
      index += 1
    }
    return nil
  }

  /// The status of `HTTP/1.x NNN reason`, or nil when it is no HTTP answer.
  private static func status(_ head: String) -> Int? {
    // Bytes, not Characters: CR LF is one Character, equal to neither "\r" nor "\n", so a
    // Character's line ran on into the next one.
    let line = Substring(head.utf8.prefix { $0 != 13 && $0 != 10 })
    let parts = line.split(separator: " ", maxSplits: 2)
    guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3 else { return nil }
    return Int(parts[1])
  }
}
