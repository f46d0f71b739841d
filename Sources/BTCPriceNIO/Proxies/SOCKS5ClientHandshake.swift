import BTCPriceSources
import NIOCore

/// The client side of a SOCKS5 proxy's handshake (RFC 1928), with the user name and password of
/// RFC 1929 when the proxy URL has them: greeting, authentication when the proxy picks it,
/// CONNECT, reply. Completes `promise` once, when the proxy has connected to the target (and
/// removes itself, so the bytes that follow are the target's), or with a ``ProxyFailure`` in
/// words when the proxy refused or hung up.
///
/// Written here rather than taken from NIOSOCKS, whose client offers "no authentication" only.
/// The protocols spoken through the tunnel (TLS, HTTP, WebSocket) all speak first; bytes that
/// come with the reply all the same are handed to the handlers added on success.
final class SOCKS5ClientHandshake: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer
  typealias OutboundOut = ByteBuffer

  /// Where the proxy should connect: a name it resolves (socks5h://) or an address resolved here.
  enum Target {
    case domain(String, port: Int)
    case address(SocketAddress)
  }

  private enum Stage {
    case notStarted, greeted, authenticating, connecting, done
  }

  private static let version: UInt8 = 5
  private static let noAuthentication: UInt8 = 0
  private static let usernamePassword: UInt8 = 2
  private static let noAcceptableMethod: UInt8 = 0xFF

  private let target: Target
  private let proxy: ProxyEndpoint
  private let promise: EventLoopPromise<Void>
  private var stage = Stage.notStarted
  private var received = ByteBuffer()

  init(target: Target, proxy: ProxyEndpoint, promise: EventLoopPromise<Void>) {
    self.target = target
    self.proxy = proxy
    self.promise = promise
  }

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { greet(context: context) }
  }

  func channelActive(context: ChannelHandlerContext) {
    greet(context: context)
    context.fireChannelActive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    var bytes = unwrapInboundIn(data)
    received.writeBuffer(&bytes)
    advance(context: context)
  }

  func channelInactive(context: ChannelHandlerContext) {
    fail(context: context, closedEarly)
    context.fireChannelInactive()
  }

  /// A channel that closes before it was ever active (the proxy refused the TCP connection, when
  /// the handlers were added before connecting, as the streams do) removes its handlers without
  /// any other event: the promise must still be completed, or its waiters would never hear.
  func handlerRemoved(context: ChannelHandlerContext) {
    guard stage != .done else { return }
    let failure = closedEarly
    stage = .done
    promise.fail(failure)
  }

  /// A proxy that hangs up mid-handshake, in words for the step it hung up at: some proxies close
  /// the connection rather than answer "no acceptable method" or a failed password.
  private var closedEarly: any Error {
    let reason: String
    switch stage {
    case .notStarted, .done:
      return ProxyFailure.closedTunnel(proxy: proxy.redacted)
    case .greeted:
      reason =
        proxy.username == nil
        ? "it closed the connection at the greeting — it may want a user name and password"
          + " (give them in the proxy URL: socks5h://user:password@host:port), or not be a"
          + " SOCKS5 proxy"
        : "it closed the connection at the greeting — it may not be a SOCKS5 proxy"
    case .authenticating:
      reason =
        "it closed the connection after the user name and password in its URL — check them"
    case .connecting:
      reason = "it closed the connection instead of connecting to the source"
    }
    return ProxyFailure.socksRefused(proxy: proxy.redacted, reason: reason)
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    guard stage != .done else { return context.fireErrorCaught(error) }
    fail(context: context, error)
  }

  // MARK: The handshake

  private func greet(context: ChannelHandlerContext) {
    guard stage == .notStarted else { return }
    stage = .greeted
    let methods =
      proxy.username == nil
      ? [Self.noAuthentication] : [Self.noAuthentication, Self.usernamePassword]
    write(context: context, [Self.version, UInt8(methods.count)] + methods)
  }

  /// Reads as far as the bytes received allow; each stage waits for its whole answer.
  private func advance(context: ChannelHandlerContext) {
    switch stage {
    case .notStarted, .done:
      return
    case .greeted:
      guard let answer = received.readBytes(length: 2) else { return }
      guard answer[0] == Self.version else { return refuse(context, "it does not speak SOCKS5") }
      switch answer[1] {
      case Self.noAuthentication:
        connect(context: context)
      case Self.usernamePassword where proxy.username != nil:
        authenticate(context: context)
      default:
        return refuse(
          context,
          proxy.username == nil
            ? "it wants a user name and password — give them in the proxy URL:"
              + " socks5h://user:password@host:port"
            : "it accepts neither no authentication nor a user name and password")
      }
    case .authenticating:
      // RFC 1929: the sub-negotiation's version, then 0 for success.
      guard let answer = received.readBytes(length: 2) else { return }
      guard answer[1] == 0 else {
        return refuse(
          context,
          "it refused the user name and password in its URL — check them, or ask your"
            + " administrator which account it expects")
      }
      connect(context: context)
    case .connecting:
      guard let reply = Self.reply(in: received) else { return }
      guard received.getInteger(at: received.readerIndex, as: UInt8.self) == Self.version else {
        return refuse(context, "it does not speak SOCKS5")
      }
      guard reply.code == 0 else { return refuse(context, Self.words(forReply: reply.code)) }
      received.moveReaderIndex(forwardBy: reply.length)
      stage = .done
      // The tunnel's user adds its handlers when the promise succeeds; bytes that came with the
      // reply are already the target's, and theirs.
      promise.succeed()
      if received.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(received)) }
      received = ByteBuffer()
      context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
    advance(context: context)
  }

  private func authenticate(context: ChannelHandlerContext) {
    let user = Array((proxy.username ?? "").utf8)
    let password = Array((proxy.password ?? "").utf8)
    guard (1...255).contains(user.count), password.count <= 255 else {
      return fail(
        context: context,
        ProxyFailure.unsupported(
          proxy: proxy.redacted,
          reason: "a SOCKS5 user name must be 1 to 255 bytes and a password at most 255"))
    }
    stage = .authenticating
    write(context: context, [1, UInt8(user.count)] + user + [UInt8(password.count)] + password)
  }

  private func connect(context: ChannelHandlerContext) {
    stage = .connecting
    var request: [UInt8] = [Self.version, 1, 0]  // CONNECT, reserved
    let port: Int
    switch target {
    case .domain(let host, let targetPort):
      let name = Array(host.utf8)
      guard name.count <= 255 else {
        return fail(context: context, BTCHTTPClientError.hostNotFound)
      }
      request += [3, UInt8(name.count)] + name
      port = targetPort
    case .address(let address):
      switch address {
      case .v4(let v4):
        request.append(1)
        withUnsafeBytes(of: v4.address.sin_addr) { request += $0 }
      case .v6(let v6):
        request.append(4)
        withUnsafeBytes(of: v6.address.sin6_addr) { request += $0 }
      case .unixDomainSocket:
        return fail(context: context, BTCHTTPClientError.hostNotFound)
      }
      port = address.port ?? 0
    }
    request += [UInt8(port >> 8 & 0xFF), UInt8(port & 0xFF)]
    write(context: context, request)
  }

  /// The reply code and the whole reply's length, once all of it has arrived.
  private static func reply(in buffer: ByteBuffer) -> (code: UInt8, length: Int)? {
    guard let head = buffer.getBytes(at: buffer.readerIndex, length: 5) else { return nil }
    let address: Int
    switch head[3] {
    case 1: address = 4
    case 3: address = 1 + Int(head[4])
    case 4: address = 16
    // An address type RFC 1928 does not define: not a reply this tool can read.
    default: return (code: head[1] == 0 ? 1 : head[1], length: buffer.readableBytes)
    }
    let length = 4 + address + 2
    return buffer.readableBytes >= length ? (head[1], length) : nil
  }

  /// RFC 1928's reply codes, in words.
  static func words(forReply code: UInt8) -> String {
    switch code {
    case 2: "connection not allowed by its rules"
    case 3: "network unreachable"
    case 4: "host unreachable (or not found)"
    case 5: "connection refused by the source"
    case 6: "TTL expired"
    case 7: "it does not support CONNECT"
    case 8: "it does not support this kind of address"
    default: "general failure (reply \(code))"
    }
  }

  private func refuse(_ context: ChannelHandlerContext, _ reason: String) {
    fail(context: context, ProxyFailure.socksRefused(proxy: proxy.redacted, reason: reason))
  }

  private func fail(context: ChannelHandlerContext, _ error: any Error) {
    guard stage != .done else { return }
    stage = .done
    promise.fail(error)
    context.close(promise: nil)
  }

  private func write(context: ChannelHandlerContext, _ bytes: [UInt8]) {
    context.writeAndFlush(
      wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: nil)
  }
}
