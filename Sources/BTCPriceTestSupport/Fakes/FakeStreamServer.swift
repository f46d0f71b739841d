import BTCPriceSources
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The fake exchange's WebSocket side, on its own 127.0.0.1 port: it upgrades any path, records
/// what clients send (subscriptions, pongs), answers subscriptions as the real exchanges do, and
/// on demand sends real-shaped messages (``FakeStreamMessage``), pings, junk, forbidden frames, an
/// oversized frame, a close; refuses the upgrade; or stays silent.
public final class FakeStreamServer: Sendable {
  /// How the server treats the next connections.
  public enum Behaviour: Sendable, Equatable {
    /// Upgrades and acknowledges subscriptions.
    case serve
    /// Answers the upgrade with HTTP 403.
    case refuseUpgrade
    /// Answers the upgrade with this status (451, 418, 429, ...) and, when given, this
    /// `Retry-After` header, as an exchange that blocks, bans or slows us down does.
    case refuseUpgradeWith(status: Int, retryAfter: String? = nil)
    /// Upgrades and then never sends anything, not even an acknowledgement.
    case silent
    /// Upgrades and answers every subscription with Coinbase's refusal.
    case refuseSubscription
    /// Upgrades with this text frame right behind the `101` answer, in the same write (so the
    /// client reads them together), then serves as ``serve`` does.
    case greet(String)
  }

  /// What the server knows, shared with its connections.
  struct StateBox {
    var behaviour = Behaviour.serve
    var channels: [ObjectIdentifier: any Channel] = [:]
    var connections = 0
    var attempts = 0
    var received: [String] = []
    var pongs = 0
    var repeating: RepeatedTask?
    var keepingAlive: RepeatedTask?
    /// Per open connection, since when a ping waits for its pong.
    var pingUnanswered: [ObjectIdentifier: NIODeadline] = [:]
    var closedForLatePong = 0
  }

  public let port: Int
  private let listener: any Channel
  private let state: NIOLockedValueBox<StateBox>

  private init(port: Int, listener: any Channel, state: NIOLockedValueBox<StateBox>) {
    self.port = port
    self.listener = listener
    self.state = state
  }

  /// Starts a server and returns once it is listening.
  public static func start() async throws -> FakeStreamServer {
    let state = NIOLockedValueBox(StateBox())
    let upgrader = NIOWebSocketServerUpgrader(
      maxFrameSize: 1 << 20,
      shouldUpgrade: { channel, _ in
        let refuse = state.withLockedValue { state in
          state.attempts += 1
          return state.behaviour.refusal != nil
        }
        return channel.eventLoop.makeSucceededFuture(refuse ? nil : HTTPHeaders())
      },
      upgradePipelineHandler: { channel, _ in
        channel.eventLoop.makeCompletedFuture {
          // Upgraded: what follows is WebSocket frames, not HTTP requests to refuse.
          let refusal = try channel.pipeline.syncOperations.handler(
            type: RefusedUpgradeHandler.self)
          channel.pipeline.syncOperations.removeHandler(refusal, promise: nil)
          try channel.pipeline.syncOperations.addHandler(FakeStreamHandler(state: state))
        }
      })
    let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          if case .greet(let text) = state.withLockedValue({ $0.behaviour }) {
            try channel.pipeline.syncOperations.addHandler(GreetingWriter(text))
          }
          try channel.pipeline.syncOperations.configureHTTPServerPipeline(
            withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
          try channel.pipeline.syncOperations.addHandler(RefusedUpgradeHandler(state: state))
        }
      }
      .bind(host: "127.0.0.1", port: 0).get()
    guard let port = listener.localAddress?.port else {
      try? await listener.close()
      throw FakeExchangeError.didNotStart
    }
    return FakeStreamServer(port: port, listener: listener, state: state)
  }

  /// Runs `body` with a fresh server and stops the server afterwards, also when `body` throws.
  public static func withRunning<Result>(_ body: (FakeStreamServer) async throws -> Result)
    async throws -> Result
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

  /// Stops listening and closes every connection.
  public func stop() async {
    let (channels, repeating) = state.withLockedValue { state in
      let open = Array(state.channels.values)
      state.channels = [:]
      let repeating = [state.repeating, state.keepingAlive]
      state.repeating = nil
      state.keepingAlive = nil
      return (open, repeating)
    }
    for task in repeating { task?.cancel() }
    for channel in channels { try? await channel.close() }
    try? await listener.close()
  }

  /// The URL of this server for `path` (Binance names its stream in the path).
  public func url(path: String = "/") -> URL {
    URL(string: "ws://127.0.0.1:\(port)\(path)")!
  }

  /// The URL here for `definition`'s stream: its real path (where a stream names its market, as
  /// Binance's `/ws/btcusdt@trade` does), else `/<id>`. The server upgrades any path.
  public func url(for definition: PriceSourceDefinition) -> URL {
    let real = definition.stream?.defaultURL.path ?? ""
    return url(path: real.contains("@") ? real : "/\(definition.source.id)")
  }

  /// The `--<name>-stream-url` of every source with a stream in the registry, all pointing here.
  public var urlArguments: [String] {
    PriceSourceRegistry.all.filter { $0.stream != nil }.flatMap { definition in
      ["--\(definition.streamURLOptionName)", url(for: definition).absoluteString]
    }
  }

  public func behave(_ behaviour: Behaviour) {
    state.withLockedValue { $0.behaviour = behaviour }
  }

  /// Upgrade requests so far, refused ones included.
  public var attempts: Int { state.withLockedValue { $0.attempts } }
  /// Connections accepted so far (upgraded ones).
  public var connections: Int { state.withLockedValue { $0.connections } }
  /// Connections open now.
  public var openConnections: Int { state.withLockedValue { $0.channels.count } }
  /// Every text message clients sent, in order.
  public var received: [String] { state.withLockedValue { $0.received } }
  /// Pongs clients sent.
  public var pongs: Int { state.withLockedValue { $0.pongs } }

  /// Sends `text` to every open connection.
  public func send(_ text: String) {
    send(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: text)))
  }

  /// Sends `text` to every open connection, and returns once each client's kernel holds all of
  /// it (its TCP has acknowledged every byte): the signal a test of what a client does *not* read
  /// until it is asked waits for, instead of sleeping and hoping the bytes have come.
  public func deliver(_ text: String) async {
    await deliver(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: text)))
  }

  /// ``ping(_:)``, returning once each client's kernel holds the ping (see ``deliver(_:)``).
  public func deliverPing(_ payload: String = "fake") async {
    await deliver(WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer(string: payload)))
  }

  /// ``close(code:)``, returning once each client's kernel holds the close frame (see
  /// ``deliver(_:)``).
  public func deliverClose(code: UInt16 = 1001) async {
    var data = ByteBuffer()
    data.writeInteger(code)
    await deliver(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))
  }

  /// Sends `message` to every open connection every `interval`, until ``stopRepeating()``.
  public func `repeat`(_ message: @escaping @Sendable () -> String, every interval: Duration) {
    let amount = TimeAmount(interval)
    let task = MultiThreadedEventLoopGroup.singleton.next().scheduleRepeatedTask(
      initialDelay: .zero, delay: amount
    ) { [self] _ in send(message()) }
    let previous = state.withLockedValue { state in
      defer { state.repeating = task }
      return state.repeating
    }
    previous?.cancel()
  }

  public func stopRepeating() {
    state.withLockedValue { state in
      state.repeating?.cancel()
      state.repeating = nil
    }
  }

  /// Connections closed because a pong came too late (``keepAlive(pingEvery:pongWithin:)``).
  public var closedForLatePong: Int { state.withLockedValue { $0.closedForLatePong } }

  /// As the exchanges keep their connections: a ping every `interval` on each open connection,
  /// and a connection whose pong has not come within `deadline` of its ping is closed (Binance:
  /// a ping every 20 s, closed after a minute without a pong; docs/STREAMS.md).
  public func keepAlive(pingEvery interval: Duration, pongWithin deadline: Duration) {
    let task = MultiThreadedEventLoopGroup.singleton.next().scheduleRepeatedTask(
      initialDelay: TimeAmount(interval), delay: TimeAmount(interval)
    ) { [state] _ in
      let now = NIODeadline.now()
      let (late, alive) = state.withLockedValue { state -> ([any Channel], [any Channel]) in
        var late: [any Channel] = []
        var alive: [any Channel] = []
        for (id, channel) in state.channels {
          if let since = state.pingUnanswered[id] {
            if now - since > TimeAmount(deadline) {
              late.append(channel)
              state.channels[id] = nil
              state.pingUnanswered[id] = nil
              state.closedForLatePong += 1
            }
            continue
          }
          state.pingUnanswered[id] = now
          alive.append(channel)
        }
        return (late, alive)
      }
      for channel in late { channel.close(promise: nil) }
      for channel in alive {
        channel.writeAndFlush(
          WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer(string: "keep-alive")),
          promise: nil)
      }
    }
    let previous = state.withLockedValue { state in
      defer { state.keepingAlive = task }
      return state.keepingAlive
    }
    previous?.cancel()
  }

  /// Sends a ping with `payload`.
  public func ping(_ payload: String = "fake") {
    send(WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer(string: payload)))
  }

  /// Sends a close frame with `code` and closes.
  public func close(code: UInt16 = 1001) {
    var data = ByteBuffer()
    data.writeInteger(code)
    send(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))
  }

  /// Sends a frame the client must refuse.
  public func sendForbidden(_ kind: ForbiddenFrame) {
    switch kind {
    case .fragmented:
      send(WebSocketFrame(fin: false, opcode: .text, data: ByteBuffer(string: #"{"e":"tr"#)))
    case .compressed:
      send(WebSocketFrame(fin: true, rsv1: true, opcode: .text, data: ByteBuffer(bytes: [1, 2])))
    case .binary:
      send(WebSocketFrame(fin: true, opcode: .binary, data: ByteBuffer(bytes: [1, 2, 3])))
    case .invalidUTF8:
      send(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(bytes: [0x7B, 0xFF, 0x7D])))
    case .oversized(let bytes):
      send(
        WebSocketFrame(
          fin: true, opcode: .text, data: ByteBuffer(repeating: UInt8(ascii: "x"), count: bytes)))
    }
  }

  public enum ForbiddenFrame: Sendable {
    case fragmented, compressed, binary, invalidUTF8
    /// A text frame of this many bytes (the client refuses it from its header).
    case oversized(bytes: Int)
  }

  private func send(_ frame: WebSocketFrame) {
    let channels = state.withLockedValue { Array($0.channels.values) }
    for channel in channels { channel.writeAndFlush(frame, promise: nil) }
  }

  private func deliver(_ frame: WebSocketFrame) async {
    let channels = state.withLockedValue { Array($0.channels.values) }
    for channel in channels {
      let written = channel.eventLoop.makePromise(of: Void.self)
      channel.writeAndFlush(frame, promise: written)
      try? await written.futureResult.get()
      await Self.waitUntilAcknowledged(channel)
    }
  }

  /// Returns once the peer's TCP has acknowledged every byte written on `channel` (Linux:
  /// `TCP_INFO` has no unacknowledged segment; Darwin: the send buffer, data in flight included,
  /// is empty), or after 5 s.
  private static func waitUntilAcknowledged(_ channel: any Channel) async {
    guard let provider = channel as? any SocketOptionProvider else { return }
    for _ in 0..<1000 {
      #if os(Linux)
        guard let info = try? await provider.getTCPInfo().get() else { return }
        if info.tcpi_unacked == 0 { return }
      #elseif canImport(Darwin)
        guard let info = try? await provider.getTCPConnectionInfo().get() else { return }
        if info.tcpi_snd_sbbytes == 0 { return }
      #else
        return
      #endif
      try? await Task.sleep(for: .milliseconds(5))
    }
  }
}

/// Real-shaped stream messages (docs/STREAMS.md says where each shape was confirmed).
public enum FakeStreamMessage {
  public static func binanceTrade(price: String, symbol: String = "BTCUSDT") -> String {
    #"{"e":"trade","E":1763800000123,"s":""# + symbol + #"","t":5123456789,"p":""# + price
      + #"","q":"0.00100000","T":1763800000120,"m":true,"M":true}"#
  }

  public static let binanceServerShutdown = #"{"e":"serverShutdown","E":1763800000123}"#

  public static func coinbaseTicker(price: String, product: String = "BTC-USD") -> String {
    #"{"type":"ticker","sequence":3262786978,"product_id":""# + product + #"","price":""# + price
      + #"","side":"buy","time":"2026-11-23T21:00:00.250000Z","trade_id":20153558,"#
      + #""last_size":"0.03000000"}"#
  }

  public static let coinbaseHeartbeat =
    #"{"type":"heartbeat","last_trade_id":20153558,"product_id":"BTC-USD","sequence":1,"#
    + #""time":"2026-11-23T21:00:01.000000Z"}"#

  public static func krakenTicker(price: String, symbol: String = "BTC/USD") -> String {
    #"{"channel":"ticker","type":"update","data":[{"symbol":""# + symbol + #"","bid":"# + price
      + #","ask":"# + price + #","last":"# + price + #","volume":1234.5}]}"#
  }

  public static let krakenHeartbeat = #"{"channel":"heartbeat"}"#

  /// An OKX `tickers` push (OKX's docs' example, as JKorf/OKX.Net's `Ticker.txt` keeps it).
  public static func okxTicker(price: String, instrument: String = "BTC-USDT") -> String {
    #"{"arg":{"channel":"tickers","instId":""# + instrument + #""},"data":[{"instType":"SPOT","#
      + #""instId":""# + instrument + #"","last":""# + price + #"","lastSz":"0.1","askPx":""#
      + price + #"","askSz":"11","bidPx":"8888.88","bidSz":"5","open24h":"9000","#
      + #""high24h":"10000","low24h":"8888.88","volCcy24h":"2222","vol24h":"2222","#
      + #""sodUtc0":"2222","sodUtc8":"2222","ts":"1597026383085"}]}"#
  }

  public static func bitstampTrade(price: String, market: String = "btcusd") -> String {
    #"{"data":{"id":412345678,"timestamp":"1763800000","amount":0.01,"amount_str":"0.01","#
      + #""price":"# + price + #","price_str":""# + price + #"","type":0},"#
      + #""channel":"live_trades_"# + market + #"","event":"trade"}"#
  }
}

extension FakeStreamServer.Behaviour {
  /// The status and `Retry-After` a refused upgrade is answered with; nil when it upgrades.
  var refusal: (status: Int, retryAfter: String?)? {
    switch self {
    case .refuseUpgrade: (403, nil)
    case .refuseUpgradeWith(let status, let retryAfter): (status, retryAfter)
    case .serve, .silent, .refuseSubscription, .greet: nil
    }
  }
}

/// Next to the socket: writes one text frame behind the first bytes flushed (the `101` answer),
/// so that both leave in one write.
private final class GreetingWriter: ChannelOutboundHandler, RemovableChannelHandler {
  typealias OutboundIn = IOData
  typealias OutboundOut = IOData

  private var greeting: ByteBuffer?

  init(_ text: String) {
    // A server's frame is not masked: FIN and the text opcode, the length (7 bits, or 126 and
    // 16 bits, or 127 and 64 bits), the bytes.
    var frame = ByteBuffer(integer: UInt8(0x81))
    let count = text.utf8.count
    if count < 126 {
      frame.writeInteger(UInt8(count))
    } else if count <= Int(UInt16.max) {
      frame.writeInteger(UInt8(126))
      frame.writeInteger(UInt16(count))
    } else {
      frame.writeInteger(UInt8(127))
      frame.writeInteger(UInt64(count))
    }
    frame.writeString(text)
    greeting = frame
  }

  func flush(context: ChannelHandlerContext) {
    if let greeting {
      self.greeting = nil
      context.write(wrapOutboundOut(.byteBuffer(greeting)), promise: nil)
    }
    context.flush()
  }
}

/// Answers a request that was not upgraded with the behaviour's refusal (403 by default), as an
/// exchange refusing us does.
private final class RefusedUpgradeHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  private let state: NIOLockedValueBox<FakeStreamServer.StateBox>

  init(state: NIOLockedValueBox<FakeStreamServer.StateBox>) {
    self.state = state
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard case .end = unwrapInboundIn(data) else { return }
    let refusal = state.withLockedValue { $0.behaviour.refusal } ?? (status: 403, retryAfter: nil)
    var headers = HTTPHeaders()
    headers.add(name: "Content-Length", value: "0")
    headers.add(name: "Connection", value: "close")
    if let retryAfter = refusal.retryAfter { headers.add(name: "Retry-After", value: retryAfter) }
    let status = HTTPResponseStatus(statusCode: refusal.status)
    context.write(
      wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
      promise: nil)
    let channel = context.channel
    context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
      channel.close(promise: nil)
    }
  }
}

/// One upgraded connection of the fake stream server.
private final class FakeStreamHandler: ChannelInboundHandler {
  typealias InboundIn = WebSocketFrame
  typealias OutboundOut = WebSocketFrame

  private let state: NIOLockedValueBox<FakeStreamServer.StateBox>

  init(state: NIOLockedValueBox<FakeStreamServer.StateBox>) {
    self.state = state
  }

  func handlerAdded(context: ChannelHandlerContext) {
    let channel = context.channel
    state.withLockedValue {
      $0.channels[ObjectIdentifier(channel)] = channel
      $0.connections += 1
    }
  }

  func channelInactive(context: ChannelHandlerContext) {
    let id = ObjectIdentifier(context.channel)
    state.withLockedValue {
      $0.channels[id] = nil
      $0.pingUnanswered[id] = nil
    }
    context.fireChannelInactive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let frame = unwrapInboundIn(data)
    switch frame.opcode {
    case .text:
      let text = String(buffer: frame.unmaskedData)
      let behaviour = state.withLockedValue {
        $0.received.append(text)
        return $0.behaviour
      }
      guard let answer = Self.answer(to: text, behaviour: behaviour) else { return }
      context.writeAndFlush(
        wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: answer))),
        promise: nil)
    case .pong:
      let id = ObjectIdentifier(context.channel)
      state.withLockedValue {
        $0.pongs += 1
        $0.pingUnanswered[id] = nil
      }
    case .connectionClose:
      context.close(promise: nil)
    default:
      break
    }
  }

  /// What each exchange answers a subscription with.
  private static func answer(to text: String, behaviour: FakeStreamServer.Behaviour) -> String? {
    switch behaviour {
    case .silent, .refuseUpgrade, .refuseUpgradeWith:
      return nil
    case .refuseSubscription:
      return #"{"type":"error","message":"Failed to subscribe","reason":"BTC-USD is delisted"}"#
    case .serve, .greet:
      if text.contains(#""type":"subscribe""#) {
        return #"{"type":"subscriptions","channels":[{"name":"ticker","product_ids":["BTC-USD"]}]}"#
      }
      if text.contains(#""method":"subscribe""#) {
        return #"{"method":"subscribe","result":{"channel":"ticker","symbol":"BTC/USD"},"#
          + #""success":true}"#
      }
      if text.contains(#""op":"subscribe""#) {
        return #"{"event":"subscribe","arg":{"channel":"tickers","instId":"BTC-USDT"},"#
          + #""connId":"a4d3ae55"}"#
      }
      // OKX's keep-alive: a text ping, a text pong.
      if text == "ping" { return "pong" }
      if text.contains("bts:heartbeat") {
        return #"{"event":"bts:heartbeat","channel":"","data":{"status":"success"}}"#
      }
      if text.contains("bts:subscribe") {
        return #"{"event":"bts:subscription_succeeded","channel":"live_trades_btcusd","data":{}}"#
      }
      return nil
    }
  }
}
