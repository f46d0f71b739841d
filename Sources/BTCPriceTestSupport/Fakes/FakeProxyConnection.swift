import NIOCore
import NIOPosix

/// One client of ``FakeProxyServer``: reads its CONNECT or SOCKS5 request, answers as the
/// server's behaviour says, and then relays bytes both ways.
///
/// `@unchecked Sendable`: it lives on its channel's loop, and the futures it waits on complete
/// there too (the outgoing connection is made on the same loop).
final class FakeProxyConnection: ChannelInboundHandler, @unchecked Sendable {
  typealias InboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer

  private let server: FakeProxyServer
  private var received = ByteBuffer()
  private var greeted = false
  private var awaitingCredentials = false
  private var peer: (any Channel)?
  private var relaying = false

  init(server: FakeProxyServer) {
    self.server = server
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    var part = unwrapInboundIn(data)
    if relaying {
      peer?.writeAndFlush(part, promise: nil)
      return
    }
    received.writeBuffer(&part)
    switch server.kind {
    case .httpConnect: readConnect(context: context)
    case .socks5: readSOCKS(context: context)
    }
  }

  func channelInactive(context: ChannelHandlerContext) {
    peer?.close(promise: nil)
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    context.close(promise: nil)
  }

  // MARK: HTTP CONNECT

  private func readConnect(context: ChannelHandlerContext) {
    let text = String(decoding: received.readableBytesView, as: UTF8.self)
    guard let end = text.range(of: "\r\n\r\n") else { return }
    received.moveReaderIndex(forwardBy: text[..<end.upperBound].utf8.count)
    let lines = text[..<end.lowerBound].components(separatedBy: "\r\n")
    let words = lines[0].split(separator: " ")
    let authorization = lines.dropFirst().first {
      $0.lowercased().hasPrefix("proxy-authorization:")
    }
    .map { String($0.dropFirst("proxy-authorization:".count)).trimmingCharacters(in: .whitespaces) }
    guard words.count == 3, words[0] == "CONNECT" else {
      return answer(context: context, "HTTP/1.1 405 Method Not Allowed", close: true)
    }
    let target = String(words[1])
    server.record(.init(target: target, proxyAuthorization: authorization))
    if let required = server.requiredAuthorization, authorization != required {
      return answer(
        context: context,
        "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"test\"",
        close: true)
    }
    switch server.behaviour {
    case .hangUp:
      context.close(promise: nil)
    case .refuse(let status):
      answer(context: context, "HTTP/1.1 \(status) Refused", close: true)
    case .tunnel:
      let (host, port) = Self.split(target)
      connect(context: context, host: host, port: port) { ok in
        ok ? "HTTP/1.1 200 Connection established\r\n\r\n" : "HTTP/1.1 502 Bad Gateway\r\n\r\n"
      }
    }
  }

  private func answer(context: ChannelHandlerContext, _ head: String, close: Bool) {
    let bytes = context.channel.allocator.buffer(string: head + "\r\nContent-Length: 0\r\n\r\n")
    let channel = context.channel
    channel.writeAndFlush(bytes).whenComplete { _ in
      if close { channel.close(promise: nil) }
    }
  }

  private static func split(_ target: String) -> (String, Int) {
    guard let colon = target.lastIndex(of: ":") else { return (target, 443) }
    var host = String(target[..<colon])
    if host.hasPrefix("[") { host = String(host.dropFirst().dropLast()) }
    return (host, Int(target[target.index(after: colon)...]) ?? 443)
  }

  // MARK: SOCKS5 (RFC 1928), with RFC 1929's user name and password when required

  private func readSOCKS(context: ChannelHandlerContext) {
    let bytes = Array(received.readableBytesView)
    if !greeted {
      guard bytes.count >= 2, bytes.count >= 2 + Int(bytes[1]) else { return }
      received.moveReaderIndex(forwardBy: 2 + Int(bytes[1]))
      greeted = true
      let offered = bytes[2..<(2 + Int(bytes[1]))]
      let method: UInt8 = server.requiredCredentials == nil ? 0 : 2
      guard offered.contains(method) else {
        return write(context: context, [5, 0xFF], close: true)
      }
      write(context: context, [5, method])
      awaitingCredentials = method == 2
      return readSOCKS(context: context)
    }
    if awaitingCredentials {
      guard bytes.count >= 2, bytes.count >= 3 + Int(bytes[1]) else { return }
      let userEnd = 2 + Int(bytes[1])
      let passwordEnd = userEnd + 1 + Int(bytes[userEnd])
      guard bytes.count >= passwordEnd else { return }
      received.moveReaderIndex(forwardBy: passwordEnd)
      awaitingCredentials = false
      let given = [bytes[2..<userEnd], bytes[(userEnd + 1)..<passwordEnd]].map {
        String(decoding: $0, as: UTF8.self)
      }
      guard given == server.requiredCredentials else {
        return write(context: context, [1, 1], close: true)
      }
      write(context: context, [1, 0])
      return readSOCKS(context: context)
    }
    guard bytes.count >= 5 else { return }
    let host: String
    let addressEnd: Int
    switch bytes[3] {
    case 1:
      addressEnd = 8
      guard bytes.count >= addressEnd + 2 else { return }
      host = bytes[4..<8].map(String.init).joined(separator: ".")
    case 3:
      addressEnd = 5 + Int(bytes[4])
      guard bytes.count >= addressEnd + 2 else { return }
      host = String(decoding: bytes[5..<addressEnd], as: UTF8.self)
    default:
      return write(context: context, [5, 8, 0, 1, 0, 0, 0, 0, 0, 0], close: true)
    }
    let port = Int(bytes[addressEnd]) << 8 | Int(bytes[addressEnd + 1])
    received.moveReaderIndex(forwardBy: addressEnd + 2)
    server.record(.init(target: "\(host):\(port)", proxyAuthorization: nil))
    switch server.behaviour {
    case .hangUp:
      context.close(promise: nil)
    case .refuse:
      write(context: context, [5, 2, 0, 1, 0, 0, 0, 0, 0, 0], close: true)
    case .tunnel:
      connect(context: context, host: host, port: port) { ok in
        String(decoding: [5, ok ? 0 : 4, 0, 1, 0, 0, 0, 0, 0, 0] as [UInt8], as: UTF8.self)
      }
    }
  }

  private func write(context: ChannelHandlerContext, _ bytes: [UInt8], close: Bool = false) {
    let channel = context.channel
    channel.writeAndFlush(channel.allocator.buffer(bytes: bytes)).whenComplete { _ in
      if close { channel.close(promise: nil) }
    }
  }

  // MARK: Relay

  /// Connects to the target as the proxy resolves it, answers with `reply`, then relays.
  private func connect(
    context: ChannelHandlerContext, host: String, port: Int,
    reply: @escaping @Sendable (Bool) -> String
  ) {
    let address = server.hosts[host] ?? (host.first?.isNumber == true ? host : nil)
    guard let address else {
      return answerRaw(context: context, reply(false), close: true)
    }
    let front = context.channel
    ClientBootstrap(group: context.eventLoop)
      .channelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHandler(FakeProxyRelay(to: front))
        }
      }
      .connect(host: address, port: port)
      .whenComplete { result in
        switch result {
        case .success(let channel):
          self.peer = channel
          self.relaying = true
          front.writeAndFlush(front.allocator.buffer(string: reply(true)), promise: nil)
          if self.received.readableBytes > 0 {
            channel.writeAndFlush(self.received, promise: nil)
            self.received.clear()
          }
        case .failure:
          front.writeAndFlush(front.allocator.buffer(string: reply(false))).whenComplete { _ in
            front.close(promise: nil)
          }
        }
      }
  }

  private func answerRaw(context: ChannelHandlerContext, _ text: String, close: Bool) {
    let bytes = context.channel.allocator.buffer(bytes: Array(text.utf8))
    let channel = context.channel
    channel.writeAndFlush(bytes).whenComplete { _ in
      if close { channel.close(promise: nil) }
    }
  }
}

/// The proxy's side towards the target: what the target sends goes back to the client.
final class FakeProxyRelay: ChannelInboundHandler, Sendable {
  typealias InboundIn = ByteBuffer

  private let front: any Channel

  init(to front: any Channel) {
    self.front = front
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    front.writeAndFlush(unwrapInboundIn(data), promise: nil)
  }

  func channelInactive(context: ChannelHandlerContext) {
    front.close(promise: nil)
  }
}
