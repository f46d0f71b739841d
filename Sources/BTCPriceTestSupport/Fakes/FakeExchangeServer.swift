import BTCPriceCore
import BTCPriceSources
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A fake of the exchanges' HTTP APIs on 127.0.0.1 with a random port, for integration and
/// end-to-end tests. Each route answers from a script of responses (the last one repeats) and
/// records every request it receives.
///
/// It is written on SwiftNIO directly, not on an HTTP framework, so that a script can also
/// misbehave the way real servers do: hang, trickle bytes, stream an endless body, reset the
/// connection (see ``FakeResponse/Delivery``).
public final class FakeExchangeServer: Sendable {
  /// A route is one source's endpoint, at the path and with the query of its real URL: the
  /// fake serves every source in ``PriceSourceRegistry``, and nothing else.
  public typealias Route = PriceSourceDefinition

  public struct RecordedRequest: Sendable {
    public let path: String
    public let query: String?
    /// Header names lowercased.
    public let headers: [String: String]
    /// The client's port: one value per TCP connection.
    public let remotePort: Int?
    /// When the request had fully arrived.
    public let receivedAt: ContinuousClock.Instant
  }

  public let port: Int
  private let state: FakeExchangeState
  private let serving: Task<Void, Never>

  private init(port: Int, state: FakeExchangeState, serving: Task<Void, Never>) {
    self.port = port
    self.state = state
    self.serving = serving
  }

  /// Starts a server and returns once it is listening.
  public static func start() async throws -> FakeExchangeServer {
    let state = FakeExchangeState()
    let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .bind(host: "127.0.0.1", port: 0) { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.configureHTTPServerPipeline(
            withErrorHandling: true)
          return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
            wrappingChannelSynchronously: channel)
        }
      }
    guard let port = listener.channel.localAddress?.port else {
      try? await listener.channel.close()
      throw FakeExchangeError.didNotStart
    }
    let serving = Task {
      await withDiscardingTaskGroup { connections in
        do {
          try await listener.executeThenClose { inbound in
            for try await connection in inbound {
              connections.addTask { await FakeConnection(connection, state: state).serve() }
            }
          }
        } catch {
          // Cancelled by stop(), or the listener failed: either way the server is done.
        }
        connections.cancelAll()
      }
    }
    return FakeExchangeServer(port: port, state: state, serving: serving)
  }

  /// Runs `body` with a fresh server and stops the server afterwards, also when `body` throws.
  public static func withRunning<Result>(_ body: (FakeExchangeServer) async throws -> Result)
    async throws
    -> Result
  {
    let server = try await start()
    do {
      let result = try await body(server)
      await server.stop()
      return result
    } catch {
      await server.stop()
      throw error
    }
  }

  /// Stops listening and ends every connection, including requests it is still answering.
  public func stop() async {
    serving.cancel()
    await serving.value
  }

  /// A loopback port nothing listens on (bound, then closed), for "connection refused" tests.
  public static func unusedPort() throws -> Int {
    let server = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .bind(host: "127.0.0.1", port: 0).wait()
    let port = server.localAddress?.port ?? 9
    try server.close().wait()
    return port
  }

  /// The route's URL on this server, shaped like the real endpoint's.
  public func url(for route: Route) -> URL {
    var components = URLComponents(url: route.defaultURL, resolvingAgainstBaseURL: false)!
    components.scheme = "http"
    components.host = "127.0.0.1"
    components.port = port
    return components.url!
  }

  /// Answers the next requests on `route` with `responses` in order; the last one then repeats.
  public func stub(_ route: Route, _ responses: FakeResponse...) async {
    await state.stub(route, responses)
  }

  public func requests(to route: Route) async -> [RecordedRequest] {
    await state.requests(to: route)
  }

  /// The URL of `route`'s candles on this server, shaped like the real candle endpoint's (its
  /// own path, so candle requests are told from price requests).
  public func candlesURL(for route: Route) -> URL {
    var components = URLComponents(
      url: route.candles?.defaultURL ?? route.defaultURL, resolvingAgainstBaseURL: false)!
    components.scheme = "http"
    components.host = "127.0.0.1"
    components.port = port
    return components.url!
  }

  /// Answers the next requests for `route`'s candles with `responses` in order; the last one
  /// then repeats. Unscripted, candles are answered 404.
  public func stubCandles(_ route: Route, _ responses: FakeResponse...) async {
    await state.stub(route, responses, candles: true)
  }

  public func candleRequests(to route: Route) async -> [RecordedRequest] {
    await state.requests(to: route, candles: true)
  }

  /// Waits (in real time, up to `timeout`) until `route` has received `count` requests.
  public func waitForRequests(to route: Route, count: Int, timeout: Duration = .seconds(10)) async
    -> Bool
  {
    let deadline = ContinuousClock.now + timeout
    while await requests(to: route).count < count {
      guard ContinuousClock.now < deadline else { return false }
      try? await Task.sleep(for: .milliseconds(5))
    }
    return true
  }
}

/// Scripts and recorded requests, by source id.
private actor FakeExchangeState {
  private var scripts: [String: [FakeResponse]] = [:]
  private var recorded: [String: [FakeExchangeServer.RecordedRequest]] = [:]
  /// How long this server holds back its first answer, whatever its route, on top of the
  /// script's own delay: `BTC_PRICE_TEST_FIRST_ANSWER_DELAY_MS`, unset in every normal run. It
  /// finds the tests that need the first tick to be on time (DEVELOPERS.md, "A first tick can
  /// miss its second in a full run").
  private var firstAnswerDelay: Duration? = ProcessInfo.processInfo
    .environment["BTC_PRICE_TEST_FIRST_ANSWER_DELAY_MS"]
    .flatMap(Int.init).map(Duration.milliseconds)

  /// The first answer's delay, once; nil after it and when none is set.
  func takeFirstAnswerDelay() -> Duration? {
    defer { firstAnswerDelay = nil }
    return firstAnswerDelay
  }

  func stub(_ route: FakeExchangeServer.Route, _ responses: [FakeResponse], candles: Bool = false) {
    scripts[Self.key(route, candles: candles)] = responses
  }

  func requests(to route: FakeExchangeServer.Route, candles: Bool = false)
    -> [FakeExchangeServer.RecordedRequest]
  {
    recorded[Self.key(route, candles: candles)] ?? []
  }

  /// A price route by its source id, its candles by `<id> candles`.
  private static func key(_ route: FakeExchangeServer.Route, candles: Bool) -> String {
    candles ? "\(route.source.id) candles" : route.source.id
  }

  /// Records the request and takes the next scripted response for its route.
  func respond(to request: FakeExchangeServer.RecordedRequest) -> FakeResponse {
    func path(_ url: URL?) -> String? {
      url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.path }
    }
    let price = PriceSourceRegistry.all.first { definition in
      definition.currencies.contains { path(try? definition.url(for: $0)) == request.path }
    }
    let candles = PriceSourceRegistry.all.first { definition in
      guard let candles = definition.candles else { return false }
      return candles.markets.keys.contains {
        path(try? candles.request(for: .day, in: $0, now: Date()).request.url) == request.path
      }
    }
    guard let route = price ?? candles else {
      return FakeResponse(status: 404, json: #"{"error":"no such route"}"#)
    }
    let id = Self.key(route, candles: price == nil)
    recorded[id, default: []].append(request)
    let script = scripts[id] ?? []
    if script.count > 1 { scripts[id] = Array(script.dropFirst()) }
    return script.first ?? FakeResponse(status: 404, json: #"{"error":"no response scripted"}"#)
  }
}

/// One client connection: answers its requests in order until it closes.
private struct FakeConnection {
  private let connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>
  private let state: FakeExchangeState

  init(
    _ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>,
    state: FakeExchangeState
  ) {
    self.connection = connection
    self.state = state
  }

  func serve() async {
    let channel = connection.channel
    // Stopping the server cancels this task; closing the channel ends the connection even while
    // a client keeps sending on it (a binary that never stops ticking must not hang stop()).
    await withTaskCancellationHandler {
      await answerRequests(on: channel)
    } onCancel: {
      channel.close(promise: nil)
    }
  }

  private func answerRequests(on channel: any Channel) async {
    do {
      try await connection.executeThenClose { inbound, outbound in
        var head: HTTPRequestHead?
        for try await part in inbound {
          switch part {
          case .head(let received):
            head = received
          case .body:
            break
          case .end:
            guard let received = head else { continue }
            let response = await state.respond(to: Self.record(received, from: channel))
            if let held = await state.takeFirstAnswerDelay() { try await Task.sleep(for: held) }
            guard try await Self.answer(with: response, to: outbound, on: channel) else { return }
          }
        }
      }
    } catch {
      // The client went away or the server is stopping; nothing to report.
    }
  }

  private static func record(_ head: HTTPRequestHead, from channel: any Channel)
    -> FakeExchangeServer.RecordedRequest
  {
    let parts = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    var headers: [String: String] = [:]
    for (name, value) in head.headers { headers[name.lowercased()] = value }
    return .init(
      path: String(parts[0]), query: parts.count > 1 ? String(parts[1]) : nil, headers: headers,
      remotePort: channel.remoteAddress?.port, receivedAt: .now)
  }

  /// Sends `response` as scripted; returns false when the connection must end.
  private static func answer(
    with response: FakeResponse,
    to outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>,
    on channel: any Channel
  ) async throws -> Bool {
    if response.delay > .zero { try await Task.sleep(for: response.delay) }
    var headers = HTTPHeaders(response.headers.map { ($0.key, $0.value) })
    let status = HTTPResponseStatus(statusCode: response.status)
    switch response.delivery {
    case .whole:
      headers.replaceOrAdd(name: "Content-Length", value: "\(response.body.count)")
      try await outbound.write(.head(.init(version: .http1_1, status: status, headers: headers)))
      try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: response.body))))
      try await outbound.write(.end(nil))
      return true
    case .trickle(let chunk, let every):
      headers.replaceOrAdd(name: "Content-Length", value: "\(response.body.count)")
      try await outbound.write(.head(.init(version: .http1_1, status: status, headers: headers)))
      var rest = response.body[...]
      while !rest.isEmpty {
        try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: rest.prefix(chunk)))))
        rest = rest.dropFirst(max(chunk, 1))
        try await Task.sleep(for: every)
      }
      try await outbound.write(.end(nil))
      return true
    case .hang:
      // Until the server stops; the client's deadline is what ends this.
      try await Task.sleep(for: .seconds(24 * 3600))
      return false
    case .reset:
      // SO_LINGER with a zero timeout makes close() send RST instead of FIN.
      try await (channel as? any SocketOptionProvider)?
        .setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
      try await channel.close()
      return false
    case .endless(let bytes):
      try await outbound.write(.head(.init(version: .http1_1, status: status, headers: headers)))
      let filler = ByteBuffer(repeating: UInt8(ascii: " "), count: 64 * 1024)
      var sent = 0
      while sent < bytes {
        let size = min(filler.readableBytes, bytes - sent)
        try await outbound.write(.body(.byteBuffer(filler.getSlice(at: 0, length: size)!)))
        sent += size
      }
      try await outbound.write(.end(nil))
      return true
    }
  }
}

extension FakeExchangeServer {
  /// Every source's URL here, by source id: the `urls` of `PriceSourceChain.remote`.
  public var urls: [String: URL] {
    Dictionary(uniqueKeysWithValues: PriceSourceRegistry.all.map { ($0.source.id, url(for: $0)) })
  }

  /// `--<source>-url` for every source, all pointing here, so that a run of the binary never
  /// reaches a real exchange whatever its `--sources`.
  public var urlArguments: [String] {
    PriceSourceRegistry.all.flatMap { ["--\($0.urlOptionName)", url(for: $0).absoluteString] }
      + candlesURLArguments
  }

  /// `--<source>-candles-url` for every source with candles, all pointing here: a run's price
  /// history is asked here too (unscripted candles are answered 404, so it has none).
  public var candlesURLArguments: [String] {
    PriceSourceRegistry.all.filter { $0.candles != nil }.flatMap {
      ["--\($0.candlesURLOptionName)", candlesURL(for: $0).absoluteString]
    }
  }
}
