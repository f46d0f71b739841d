import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOPosix

/// A fake of the exchanges' HTTP APIs on 127.0.0.1 with a random port, for integration and
/// end-to-end tests. Each route answers from a script of responses (the last one repeats) and
/// records every request it receives.
public final class FakeExchangeServer: Sendable {
  public enum Route: String, Sendable, CaseIterable {
    case binance = "/api/v3/ticker/price"
    case cryptoCompare = "/data/generateAvg"
  }

  public struct RecordedRequest: Sendable {
    public let path: String
    public let query: String?
    /// Header names lowercased.
    public let headers: [String: String]
    /// The client's port: one value per TCP connection.
    public let remotePort: Int?
  }

  public let port: Int
  private let state: FakeExchangeState
  private let serving: Task<Void, any Error>

  private init(port: Int, state: FakeExchangeState, serving: Task<Void, any Error>) {
    self.port = port
    self.state = state
    self.serving = serving
  }

  /// Starts a server and returns once it is listening.
  public static func start() async throws -> FakeExchangeServer {
    let state = FakeExchangeState()
    let router = Router(context: FakeExchangeContext.self)
    for route in Route.allCases {
      router.get(RouterPath(route.rawValue)) { request, context in
        try await state.respond(on: route, to: request, remotePort: context.remotePort)
      }
    }
    let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
    let app = Application(
      router: router,
      configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "fake-exchange"),
      onServerRunning: { channel in
        portSink.yield(channel.localAddress?.port ?? 0)
        portSink.finish()
      },
      logger: Logger(label: "fake-exchange") { _ in SwiftLogNoOpLogHandler() }
    )
    let serving = Task { try await app.run() }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next(), port > 0 else {
      serving.cancel()
      throw FakeExchangeError.didNotStart
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

  /// Stops listening and ends requests in flight.
  public func stop() async {
    serving.cancel()
    _ = await serving.result
  }

  /// A loopback port nothing listens on (bound, then closed), for "connection refused" tests.
  public static func unusedPort() throws -> Int {
    let server = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .bind(host: "127.0.0.1", port: 0).wait()
    let port = server.localAddress?.port ?? 9
    try server.close().wait()
    return port
  }

  public func url(for route: Route) -> URL {
    switch route {
    case .binance: URL(string: "http://127.0.0.1:\(port)/api/v3/ticker/price?symbol=BTCUSDT")!
    case .cryptoCompare:
      URL(string: "http://127.0.0.1:\(port)/data/generateAvg?fsym=BTC&tsym=USD&e=coinbase")!
    }
  }

  /// Answers the next requests on `route` with `responses` in order; the last one then repeats.
  public func stub(_ route: Route, _ responses: FakeResponse...) async {
    await state.stub(route, responses)
  }

  public func requests(to route: Route) async -> [RecordedRequest] {
    await state.requests(to: route)
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

public enum FakeExchangeError: Error {
  case didNotStart
}

/// One scripted answer.
public struct FakeResponse: Sendable {
  public var status: Int
  public var headers: [String: String]
  public var body: Data
  /// How long the server waits before answering.
  public var delay: Duration

  public init(
    status: Int = 200, headers: [String: String] = [:], body: Data, delay: Duration = .zero
  ) {
    self.status = status
    self.headers = headers
    self.body = body
    self.delay = delay
  }

  public init(
    status: Int = 200, headers: [String: String] = [:], json: String, delay: Duration = .zero
  ) {
    var headers = headers
    headers["Content-Type"] = headers["Content-Type"] ?? "application/json"
    self.init(status: status, headers: headers, body: Data(json.utf8), delay: delay)
  }

  /// Binance's real shape: the price is a string.
  public static func binance(price: String, symbol: String = "BTCUSDT", delay: Duration = .zero)
    -> FakeResponse
  {
    FakeResponse(json: #"{"symbol":"\#(symbol)","price":"\#(price)"}"#, delay: delay)
  }

  /// CryptoCompare's real shape: `PRICE` is a JSON number, written here exactly as given.
  public static func cryptoCompare(price: String, delay: Duration = .zero) -> FakeResponse {
    FakeResponse(
      json: """
        {"RAW":{"MARKET":"CUSTOMAGG","FROMSYMBOL":"BTC","TOSYMBOL":"USD","FLAGS":"0",\
        "PRICE":\(price),"LASTUPDATE":1763800000,"VOLUME24HOUR":9312.5},\
        "DISPLAY":{"FROMSYMBOL":"Ƀ","TOSYMBOL":"$","PRICE":"$ 68,910.1"}}
        """, delay: delay)
  }

  /// CryptoCompare without an API key since May 2026.
  public static let cryptoCompareKeyRequired = FakeResponse(
    status: 401,
    json: #"{"Data":{},"Err":{"type":2,"message":"API key required for this endpoint."}}"#)
}

private actor FakeExchangeState {
  private var scripts: [FakeExchangeServer.Route: [FakeResponse]] = [:]
  private var recorded: [FakeExchangeServer.Route: [FakeExchangeServer.RecordedRequest]] = [:]

  func stub(_ route: FakeExchangeServer.Route, _ responses: [FakeResponse]) {
    scripts[route] = responses
  }

  func requests(to route: FakeExchangeServer.Route) -> [FakeExchangeServer.RecordedRequest] {
    recorded[route] ?? []
  }

  func respond(on route: FakeExchangeServer.Route, to request: Request, remotePort: Int?)
    async throws
    -> Response
  {
    var headers: [String: String] = [:]
    for field in request.headers { headers[field.name.canonicalName] = field.value }
    recorded[route, default: []].append(
      .init(
        path: request.uri.path, query: request.uri.query, headers: headers, remotePort: remotePort))
    let script = scripts[route] ?? []
    let response =
      script.first ?? FakeResponse(status: 404, json: #"{"error":"no response scripted"}"#)
    if script.count > 1 { scripts[route] = Array(script.dropFirst()) }
    if response.delay > .zero { try await Task.sleep(for: response.delay) }
    var fields = HTTPFields()
    for (name, value) in response.headers {
      if let name = HTTPField.Name(name) { fields[name] = value }
    }
    return Response(
      status: .init(code: response.status), headers: fields,
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: response.body)))
  }
}

struct FakeExchangeContext: RequestContext {
  var coreContext: CoreRequestContextStorage
  let remotePort: Int?

  init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    remotePort = source.channel.remoteAddress?.port
  }
}
