import BTCPriceNetworking
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

private typealias TransportError = BTCPriceNetworking.HTTPClientError

/// ``HTTPClient`` on SwiftNIO's HTTP/1.1 codec, for the command-line tool: one GET at a time per
/// connection, connections kept per origin and reused, TLS through NIOSSL, up to 3 redirects.
///
/// Why not AsyncHTTPClient: its machinery per request (connection pool and request state
/// machines, a request bag, a delegate, redirect and tracing state, HTTP/2 negotiation) cost
/// about 165,000 instructions a tick, half of everything the tool did, and its first connection
/// about 13 million, a third of the start-up; its dependencies added 1,500 protocol conformance
/// records, which every dynamic cast at start-up scans (docs/PERFORMANCE.md, "What limits each
/// figure").
/// This client does what the ``HTTPClient`` contract asks and no more; the adapter contract and
/// fault specs are its tests.
public final class NIOHTTPClient: BTCPriceNetworking.HTTPClient {
  private let group: any EventLoopGroup
  private let transportTimeout: TimeAmount
  private let connectTimeout: TimeAmount
  private let state = NIOLockedValueBox(State())

  private struct State {
    var idle: [Origin: [Connection]] = [:]
    var tls: NIOSSLContext?
    var shutDown = false
    /// Each request's origin and head, made once: a source's URL and headers never change.
    var prepared: [PreparedKey: Prepared] = [:]
  }

  /// - Parameters:
  ///   - transportTimeout: a backstop for a caller that never cancels; Core's deadlines cancel
  ///     the task long before.
  ///   - eventLoopGroup: where the connections live; by default SwiftNIO's shared singleton
  ///     group. The command-line tool passes its one-thread group, whose loop also runs its ticks
  ///     (``EventLoopExecutor``), so a request never changes threads.
  public init(
    transportTimeout: Duration = .seconds(30), connectTimeout: Duration = .seconds(5),
    eventLoopGroup: (any EventLoopGroup)? = nil
  ) {
    self.group = eventLoopGroup ?? MultiThreadedEventLoopGroup.singleton
    self.transportTimeout = TimeAmount(transportTimeout)
    self.connectTimeout = TimeAmount(connectTimeout)
  }

  /// Closes the pooled connections. Call once, before the process ends.
  public func shutdown() async {
    let connections = state.withLockedValue { state in
      state.shutDown = true
      defer { state.idle = [:] }
      return state.idle.values.flatMap { $0 }
    }
    for connection in connections {
      try? await connection.channel.close()
    }
  }

  public func get(_ request: HTTPRequest) async throws -> HTTPResponse {
    var url = request.url
    var headers = request.headers
    var response = try await fetch(
      url, headers: headers, body: request.body, maxBodySize: request.maxBodySize)
    // Redirects, as AsyncHTTPClient followed them: at most 3, never twice to the same URL.
    var visited: Set<String> = [url.absoluteString]
    // A POST is not redirected: where its body may go again is the caller's decision.
    while request.body == nil, visited.count <= 3,
      [301, 302, 303, 307, 308].contains(response.status),
      let location = response.headers["location"],
      let next = URL(string: location, relativeTo: url)?.absoluteURL,
      let nextOrigin = try? Origin(next), visited.insert(next.absoluteString).inserted
    {
      // Credentials go to the host they were meant for, never to where it sends us.
      if try Origin(url) != nextOrigin {
        headers.removeAll { $0.name.lowercased() == "authorization" }
      }
      url = next
      response = try await fetch(
        url, headers: headers, body: nil, maxBodySize: request.maxBodySize)
    }
    return response
  }

  static func map(_ error: any Error) -> any Error {
    if Task.isCancelled || error is CancellationError { return CancellationError() }
    switch error {
    case let error as TransportError:
      return error
    case let error as NIOConnectionError:
      if error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty {
        return TransportError.hostNotFound
      }
      return error.connectionErrors.first.map { map($0.error) }
        ?? TransportError.other(error.description)
    case let error as IOError:
      switch error.errnoCode {
      case ECONNREFUSED: return TransportError.connectionRefused
      case ECONNRESET, EPIPE: return TransportError.connectionReset
      default: return TransportError.other(error.description)
      }
    case let error as ChannelError:
      switch error {
      case .connectTimeout: return TransportError.timedOut
      case .eof, .alreadyClosed, .ioOnClosedChannel, .outputClosed, .inputClosed:
        return TransportError.connectionReset
      default: return TransportError.other(String(describing: error))
      }
    case let error as NIOSSLError:
      if case .uncleanShutdown = error { return TransportError.connectionReset }
      return TransportError.tlsFailure(String(describing: error))
    case let error as BoringSSLError:
      return TransportError.tlsFailure(String(describing: error))
    case let error as SocketAddressError:
      if case .unknown = error { return TransportError.hostNotFound }
      return TransportError.other(String(describing: error))
    default:
      return TransportError.other(String(describing: error))
    }
  }

  private func fetch(
    _ url: URL, headers: [(name: String, value: String)], body: Data?, maxBodySize: Int
  ) async throws -> HTTPResponse {
    do {
      var (origin, head) = try prepare(url, headers: headers)
      let payload = body.map { ByteBuffer(bytes: $0) }
      if let body {
        head.method = .POST
        head.headers.replaceOrAdd(name: "Content-Length", value: "\(body.count)")
      }
      // A pooled connection the server has just closed fails before any answer arrives: asked
      // again on a new connection, as a GET may be.
      for attempt in 0..<2 {
        // `any()` is the caller's own loop when it runs on one of the group's.
        let preferred = group.any()
        let pooled = attempt == 0 ? takeIdle(origin, preferring: preferred) : nil
        let exchange = Exchange(
          loop: pooled?.channel.eventLoop ?? preferred, maxBodySize: maxBodySize)
        do {
          return try await withTaskCancellationHandler {
            try await run(
              exchange, origin: origin, head: head, body: payload, pooled: pooled
            ).get()
          } onCancel: {
            exchange.cancel()
          }
        } catch is StaleConnection where attempt == 0 {
          continue
        }
      }
      preconditionFailure("unreachable")
    } catch {
      throw Self.map(error)
    }
  }

  /// The request on the exchange's loop: on the pooled connection or a new one, the head
  /// written, the answer collected by the connection's ``ResponseHandler``.
  private func run(
    _ exchange: Exchange, origin: Origin, head: HTTPRequestHead, body: ByteBuffer?,
    pooled: Connection?
  ) -> EventLoopFuture<HTTPResponse> {
    let loop = exchange.loop
    let timeout = loop.scheduleTask(in: transportTimeout) {
      exchange.fail(TransportError.timedOut)
    }
    exchange.promise.futureResult.whenComplete { _ in timeout.cancel() }

    let connection = pooled.map { loop.makeSucceededFuture($0) } ?? connect(origin, on: loop)
    let reused = pooled != nil
    connection.whenComplete { result in
      switch result {
      case .failure(let error):
        exchange.fail(error)
      case .success(let connection):
        guard exchange.attach(connection.channel) else {
          connection.channel.close(promise: nil)
          return
        }
        let handler = connection.handler.value
        handler.start(exchange, head: head, body: body, reused: reused) { reusable in
          if reusable {
            self.putIdle(connection, origin)
          } else {
            connection.channel.close(promise: nil)
          }
        }
      }
    }
    return exchange.promise.futureResult
  }

  private func connect(_ origin: Origin, on loop: any EventLoop) -> EventLoopFuture<Connection> {
    let tls: NIOSSLContext?
    do {
      tls = origin.secure ? try tlsContext() : nil
    } catch {
      return loop.makeFailedFuture(error)
    }
    // An IP address is no server name for SNI (NIOSSL refuses it).
    let serverName =
      origin.host.contains(":") || origin.host.allSatisfy { $0.isNumber || $0 == "." }
      ? nil : origin.host
    // The handler of this connection, kept from the initializer: after a quick failure (a TLS
    // handshake refused at once) the pipeline may be empty before the connect future's callbacks
    // run, and a lookup would find nothing.
    let kept = NIOLoopBoundBox.makeEmptyBox(valueType: ResponseHandler.self, eventLoop: loop)
    let bootstrap = ClientBootstrap(group: loop)
      .connectTimeout(connectTimeout)
      .channelOption(.tcpOption(.tcp_nodelay), value: 1)
      .channelInitializer { channel in
        do {
          let pipeline = channel.pipeline.syncOperations
          if let tls {
            try pipeline.addHandler(NIOSSLClientHandler(context: tls, serverHostname: serverName))
          }
          // Request heads are checked once, when made (``prepare``).
          try pipeline.addHTTPClientHandlers(enableOutboundHeaderValidation: false)
          let handler = ResponseHandler()
          kept.value = handler
          try pipeline.addHandler(handler)
          return channel.eventLoop.makeSucceededVoidFuture()
        } catch {
          return channel.eventLoop.makeFailedFuture(error)
        }
      }
    return bootstrap.connect(host: origin.host, port: origin.port).flatMapThrowing { channel in
      guard let handler = kept.value else { throw TransportError.connectionReset }
      return Connection(channel: channel, handler: NIOLoopBound(handler, eventLoop: loop))
    }
  }

  private func tlsContext() throws -> NIOSSLContext {
    try state.withLockedValue { state in
      if let context = state.tls { return context }
      let context = try NIOSSLContext(configuration: .makeClientConfiguration())
      state.tls = context
      return context
    }
  }

  /// An open pooled connection to the origin, on the preferred loop if there is one there.
  /// Connections idle for longer are closed rather than reused: a server or a NAT may have
  /// dropped one without a word, and a request on it would hang until its deadline.
  private static let idleTimeout = TimeAmount.seconds(60)

  private func takeIdle(_ origin: Origin, preferring loop: any EventLoop) -> Connection? {
    let (found, expired) = state.withLockedValue { state -> (Connection?, [Connection]) in
      var expired: [Connection] = []
      let oldest = NIODeadline.now() - Self.idleTimeout
      while var connections = state.idle[origin], !connections.isEmpty {
        let index = connections.firstIndex { $0.channel.eventLoop === loop } ?? 0
        let connection = connections.remove(at: index)
        state.idle[origin] = connections
        guard connection.channel.isActive else { continue }
        guard connection.idleSince > oldest else {
          expired.append(connection)
          continue
        }
        return (connection, expired)
      }
      return (nil, expired)
    }
    for connection in expired {
      connection.channel.close(promise: nil)
    }
    return found
  }

  private func putIdle(_ connection: Connection, _ origin: Origin) {
    var connection = connection
    connection.idleSince = .now()
    let kept = state.withLockedValue { [connection] state in
      guard !state.shutDown, state.idle[origin, default: []].count < 4 else { return false }
      state.idle[origin, default: []].append(connection)
      return true
    }
    if !kept { connection.channel.close(promise: nil) }
  }

  private func prepare(
    _ url: URL, headers: [(name: String, value: String)]
  ) throws -> Prepared {
    let key = PreparedKey(
      url: url.absoluteString, headers: headers.flatMap { [$0.name, $0.value] })
    if let known = state.withLockedValue({ $0.prepared[key] }) { return known }
    let origin = try Origin(url)
    var path = url.path(percentEncoded: true)
    if path.isEmpty { path = "/" }
    if let query = url.query(percentEncoded: true) { path += "?" + query }
    var fields = HTTPHeaders()
    fields.add(name: "Host", value: origin.hostHeader)
    for header in headers {
      // Checked here, once, instead of by SwiftNIO's validator on every write: a value from the
      // environment (an API key) must not be able to add a header or a request.
      guard Self.isToken(header.name), !header.value.utf8.contains(where: Self.breaksAHeader) else {
        throw TransportError.other("invalid request header")
      }
      fields.add(name: header.name, value: header.value)
    }
    let prepared = (
      origin, HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: fields)
    )
    state.withLockedValue { state in
      // A handful of sources, each with one URL: the bound only guards against a caller that
      // makes up a new URL every time.
      if state.prepared.count >= 64 { state.prepared.removeAll() }
      state.prepared[key] = prepared
    }
    return prepared
  }

  private static func isToken(_ name: String) -> Bool {
    !name.isEmpty
      && name.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"):
          return true
        default:
          return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
      }
  }

  private static func breaksAHeader(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") || byte == 0
  }
}

private typealias Prepared = (origin: Origin, head: HTTPRequestHead)

/// What makes two of our requests the same request.
private struct PreparedKey: Hashable {
  let url: String
  let headers: [String]
}

/// Where a request goes: scheme, host and port, the key of the connection pool.
struct Origin: Hashable, Sendable {
  let secure: Bool
  let host: String
  let port: Int

  init(_ url: URL) throws {
    switch url.scheme?.lowercased() {
    case "https": secure = true
    case "http": secure = false
    default: throw TransportError.other("unsupported URL \(url.absoluteString)")
    }
    guard let host = url.host(percentEncoded: false), !host.isEmpty else {
      throw TransportError.other("no host in \(url.absoluteString)")
    }
    self.host = host
    self.port = url.port ?? (secure ? 443 : 80)
  }

  var hostHeader: String {
    let name = host.contains(":") ? "[\(host)]" : host
    return port == (secure ? 443 : 80) ? name : "\(name):\(port)"
  }
}

/// A kept connection: its channel, and the handler at the end of its pipeline, which only its
/// own loop may use.
private struct Connection: Sendable {
  let channel: any Channel
  let handler: NIOLoopBound<ResponseHandler>
  /// When it went back to the pool.
  var idleSince = NIODeadline.now()
}

/// A pooled connection closed before anything of the answer arrived.
private struct StaleConnection: Error {}

/// One request's outcome, completed once: by the answer, a failure, the transport timeout or
/// the caller's cancellation, whichever comes first. Whoever completes it closes the channel
/// unless the answer was whole.
private final class Exchange: Sendable {
  let loop: any EventLoop
  let promise: EventLoopPromise<HTTPResponse>
  let maxBodySize: Int
  private let channel = NIOLockedValueBox<ChannelState>(.none)

  private enum ChannelState {
    case none
    case attached(any Channel)
    case cancelled
  }

  init(loop: any EventLoop, maxBodySize: Int) {
    self.loop = loop
    self.promise = loop.makePromise(of: HTTPResponse.self)
    self.maxBodySize = maxBodySize
  }

  /// False when the caller has given up already.
  func attach(_ channel: any Channel) -> Bool {
    self.channel.withLockedValue { state in
      guard case .none = state else { return false }
      state = .attached(channel)
      return true
    }
  }

  func cancel() {
    fail(CancellationError())
  }

  /// Fails the request (when still open) and drops its connection.
  func fail(_ error: any Error) {
    let attached = channel.withLockedValue { state -> (any Channel)? in
      defer { state = .cancelled }
      if case .attached(let channel) = state { return channel }
      return nil
    }
    attached?.close(promise: nil)
    if loop.inEventLoop {
      promise.fail(error)
    } else {
      loop.execute { self.promise.fail(error) }
    }
  }

  /// Completes the request; its connection is no longer the exchange's to close.
  func succeed(_ response: HTTPResponse) {
    channel.withLockedValue { $0 = .cancelled }
    promise.succeed(response)
  }
}

/// Collects one answer at a time into an ``HTTPResponse``, and tells its owner whether the
/// connection can carry the next request.
private final class ResponseHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPClientResponsePart
  typealias OutboundOut = HTTPClientRequestPart

  private var context: ChannelHandlerContext?
  private var current: Current?
  /// Why the connection failed while no request was on it (a TLS handshake refused before the
  /// request was written): the next request's failure.
  private var failure: (any Error)?

  private struct Current {
    let exchange: Exchange
    let reused: Bool
    let done: (_ reusable: Bool) -> Void
    var head: HTTPResponseHead?
    var body: ByteBuffer?
  }

  func handlerAdded(context: ChannelHandlerContext) {
    self.context = context
  }

  func start(
    _ exchange: Exchange, head: HTTPRequestHead, body: ByteBuffer?, reused: Bool,
    done: @escaping (_ reusable: Bool) -> Void
  ) {
    guard let context, context.channel.isActive, failure == nil, current == nil else {
      exchange.fail(failure ?? TransportError.connectionReset)
      done(false)
      return
    }
    current = Current(exchange: exchange, reused: reused, done: done)
    context.write(wrapOutboundOut(.head(head)), promise: nil)
    if let body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
    context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard var current else { return }
    switch unwrapInboundIn(data) {
    case .head(let head):
      if let length = head.headers.first(name: "content-length").flatMap(Int.init),
        length > current.exchange.maxBodySize
      {
        return finish(failure: TransportError.bodyTooLarge(limit: current.exchange.maxBodySize))
      }
      current.head = head
      self.current = current
    case .body(var part):
      let size = (current.body?.readableBytes ?? 0) + part.readableBytes
      guard size <= current.exchange.maxBodySize else {
        return finish(failure: TransportError.bodyTooLarge(limit: current.exchange.maxBodySize))
      }
      if current.body == nil {
        current.body = part
      } else {
        current.body!.writeBuffer(&part)
      }
      self.current = current
    case .end:
      guard let head = current.head else {
        return finish(failure: TransportError.other("an answer without a head"))
      }
      var headers: [String: String] = [:]
      for (name, value) in head.headers {
        let name = name.lowercased()
        if headers[name] == nil { headers[name] = value }
      }
      let response = HTTPResponse(
        status: Int(head.status.code), headers: headers,
        body: current.body.map { Data($0.readableBytesView) } ?? Data())
      self.current = nil
      // Back in the pool before the caller resumes, so that its next request finds it there.
      current.done(head.isKeepAlive)
      current.exchange.succeed(response)
    }
  }

  func channelInactive(context: ChannelHandlerContext) {
    finish(failure: TransportError.connectionReset)
    context.fireChannelInactive()
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    if current == nil, failure == nil { failure = error }
    finish(failure: error)
    context.close(promise: nil)
  }

  private func finish(failure: any Error) {
    guard let current else { return }
    self.current = nil
    // Closed or reset before a byte of the answer, on a connection that had served before: the
    // server dropped it while it sat in the pool (its keep-alive ran out as we wrote).
    let closed: Bool
    switch failure {
    case TransportError.connectionReset: closed = true
    case let error as IOError: closed = error.errnoCode == ECONNRESET || error.errnoCode == EPIPE
    default: closed = false
    }
    current.exchange.fail(
      current.reused && current.head == nil && closed ? StaleConnection() : failure)
    current.done(false)
  }
}
