import BTCPriceSources
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

/// The transport failures this module throws (a name that does not collide with NIO's own).
typealias TransportError = BTCPriceSources.BTCHTTPClientError

/// ``BTCHTTPClient`` on SwiftNIO's HTTP/1.1 codec, for the command-line tool: one GET at a time per
/// connection, connections kept per origin and reused, TLS through NIOSSL, up to 3 redirects.
///
/// Why not AsyncHTTPClient: its machinery per request (connection pool and request state
/// machines, a request bag, a delegate, redirect, tracing and HTTP/2 state) and its dependencies'
/// conformance records cost more than the rest of a tick and of a start-up (docs/PERFORMANCE.md,
/// "Why SwiftNIO's HTTP/1.1 codec").
/// This client does what the ``BTCHTTPClient`` contract asks and no more; the adapter contract and
/// fault specs are its tests.
public final class NIOHTTPClient: BTCPriceSources.BTCHTTPClient {
  private let group: any EventLoopGroup
  private let transportTimeout: TimeAmount
  private let connectTimeout: TimeAmount
  private let proxies: ProxySelector?
  private let tls: ClientTLS
  private let state = NIOLockedValueBox(State())

  private struct State {
    var idle: [Origin: [Connection]] = [:]
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
  ///   - proxies: which proxy each URL goes through (``ProxySelector``); nil: always direct.
  ///   - trust: the certificate authorities TLS connections trust (``ClientTLS``).
  public convenience init(
    transportTimeout: Duration = .seconds(30), connectTimeout: Duration = .seconds(5),
    eventLoopGroup: (any EventLoopGroup)? = nil, proxies: ProxySelector? = nil,
    trust: TrustSource = .system
  ) {
    self.init(
      transportTimeout: transportTimeout, connectTimeout: connectTimeout,
      eventLoopGroup: eventLoopGroup, proxies: proxies, tls: ClientTLS(trust: trust))
  }

  /// - Parameter tls: the TLS context, one for the run (the streams' connector shares it).
  public init(
    transportTimeout: Duration = .seconds(30), connectTimeout: Duration = .seconds(5),
    eventLoopGroup: (any EventLoopGroup)? = nil, proxies: ProxySelector? = nil, tls: ClientTLS
  ) {
    self.proxies = proxies
    self.tls = tls
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

  public func get(_ request: BTCHTTPRequest) async throws -> BTCHTTPResponse {
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
    case let error as ProxyFailure:
      return TransportError.proxy(error)
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
  ) async throws -> BTCHTTPResponse {
    do {
      var (origin, head, route) = try prepare(url, headers: headers)
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
              exchange, origin: origin, route: route, head: head, body: payload, pooled: pooled
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
    _ exchange: Exchange, origin: Origin, route: ProxySelector.Route?, head: HTTPRequestHead,
    body: ByteBuffer?,
    pooled: Connection?
  ) -> EventLoopFuture<BTCHTTPResponse> {
    let loop = exchange.loop
    let timeout = loop.scheduleTask(in: transportTimeout) {
      exchange.fail(TransportError.timedOut)
    }
    exchange.promise.futureResult.whenComplete { _ in timeout.cancel() }

    let connection =
      pooled.map { loop.makeSucceededFuture($0) } ?? connect(origin, via: route?.proxy, on: loop)
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

  private func connect(
    _ origin: Origin, via proxy: ProxyEndpoint?, on loop: any EventLoop
  ) -> EventLoopFuture<Connection> {
    guard origin.secure else { return connect(origin, via: proxy, on: loop, tls: nil) }
    return tls.context(on: loop).flatMap { tls in
      self.connect(origin, via: proxy, on: loop, tls: tls)
    }
  }

  private func connect(
    _ origin: Origin, via proxy: ProxyEndpoint?, on loop: any EventLoop, tls: NIOSSLContext?
  ) -> EventLoopFuture<Connection> {
    // An IP address is no server name for SNI (NIOSSL refuses it).
    let serverName =
      origin.host.contains(":") || origin.host.allSatisfy { $0.isNumber || $0 == "." }
      ? nil : origin.host
    let bootstrap = ClientBootstrap(group: loop)
      .connectTimeout(connectTimeout)
      .channelOption(.tcpOption(.tcp_nodelay), value: 1)
      .lookingUpNamesOffDispatch(on: loop)
    guard let proxy else {
      // The handler of this connection, kept from the initializer: after a quick failure (a TLS
      // handshake refused at once) the pipeline may be empty before the connect future's
      // callbacks run, and a lookup would find nothing.
      let kept = NIOLoopBoundBox.makeEmptyBox(valueType: ResponseHandler.self, eventLoop: loop)
      return bootstrap.channelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          kept.value = try Self.addHandlers(
            to: channel, tls: tls, serverName: serverName, host: origin.host)
        }
      }
      .connect(host: origin.host, port: origin.port).flatMapThrowing { channel in
        guard let handler = kept.value else { throw TransportError.connectionReset }
        return Connection(channel: channel, handler: NIOLoopBound(handler, eventLoop: loop))
      }
    }
    // Through a proxy: connect to it, open the tunnel, then the same handlers as a direct
    // connection, which now talk to the source.
    return bootstrap.connect(host: proxy.host, port: proxy.port)
      .flatMapError { error in loop.makeFailedFuture(Self.unreachable(proxy, error)) }
      .flatMap { channel in
        ProxyTunnel.open(on: channel, to: origin.host, port: origin.port, via: proxy)
          .flatMapThrowing {
            let handler = try Self.addHandlers(
              to: channel, tls: tls, serverName: serverName, host: origin.host)
            return Connection(channel: channel, handler: NIOLoopBound(handler, eventLoop: loop))
          }
      }
  }

  /// TLS when the origin is https, the HTTP/1.1 codec and the handler that collects answers.
  /// Internal, not private: the `http-response` fuzz target feeds this very pipeline.
  static func addHandlers(
    to channel: any Channel, tls: NIOSSLContext?, serverName: String?, host: String
  ) throws -> ResponseHandler {
    let pipeline = channel.pipeline.syncOperations
    if let tls {
      let observer = TLSCertificateObserver()
      try pipeline.addHandler(observer.makeHandler(context: tls, serverName: serverName))
      try pipeline.addHandler(TLSFailureExplainer(observer: observer, host: host))
    }
    // The two handlers addHTTPClientHandlers adds without a header validator (request heads are
    // checked once, when made: ``prepare``), added one by one: it gathers them in an array of
    // `RemovableChannelHandler`, whose cast to `ChannelHandler` checks each element's conformance
    // at run time (docs/PERFORMANCE.md, "The one-shot's conformance scans").
    try pipeline.addHandler(HTTPRequestEncoder())
    try pipeline.addHandler(
      ByteToMessageHandler(HTTPResponseDecoder(leftOverBytesStrategy: .dropBytes)))
    let handler = ResponseHandler()
    try pipeline.addHandler(handler)
    return handler
  }

  /// A proxy that cannot be reached is told apart from a source that cannot be.
  private static func unreachable(_ proxy: ProxyEndpoint, _ error: any Error) -> any Error {
    let reason: String
    switch map(error) {
    case TransportError.hostNotFound: reason = "its host name was not found"
    case TransportError.connectionRefused: reason = "it refused the connection"
    case TransportError.timedOut: reason = "it did not answer"
    default: reason = String(describing: map(error))
    }
    return TransportError.proxy(.unreachable(proxy: proxy.redacted, reason: reason))
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
    let route: ProxySelector.Route?
    do {
      route = try proxies?.route(for: url)
    } catch {
      throw TransportError.proxy(.unsupported(proxy: "in the settings", reason: error.description))
    }
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
      origin, HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: fields), route
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
