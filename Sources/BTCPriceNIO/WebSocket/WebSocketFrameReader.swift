import BTCPriceCore
import BTCPriceSources
import NIOCore
import NIOWebSocket

/// The last handler of an upgraded price-stream connection: sends the subscriptions
/// (``subscribe()``) and what the runner says later (``send(_:)``), hands each frame to the runner's `onInbound` on the channel's own event
/// loop, answers pings, and ends the connection with its typed ``PriceStreamError``, which
/// `ended` carries.
///
/// Why a handler and not `NIOAsyncChannel`'s `for await`: the async sequence wakes a task on
/// Swift's global pool, another thread, for every message (docs/PERFORMANCE.md, "Streams"). Here
/// a frame is read, parsed and put on the board by the thread that read it from the socket, and
/// only the connection's end wakes the waiting task.
///
/// Read on the tick (`readOnTick`): once the subscriptions are sent the channel stops reading on
/// its own (`autoRead` off), and the frames the kernel buffered are read only when ``drain(within:)``
/// asks, once a tick. Each message is handed on with how long ago it reached the machine, which
/// the kernel tells (`TCP_INFO`'s last data received, on Linux), so the board dates it when it
/// came, not when the tick read it. A second of running then costs the tick's one wake-up and a
/// few reads whatever the market does, instead of one wake-up per message (docs/PERFORMANCE.md,
/// "Streams"). Where the kernel cannot tell, the first frame after a drain is read as it arrives
/// (see `channelReadComplete`): two wake-ups a stream a second at most. Pings may wait for the
/// next drain: Binance wants a pong within a minute, a tick comes every second.
final class WebSocketFrameReader: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = WebSocketFrame
  typealias OutboundOut = WebSocketFrame

  /// Succeeds once, with why the connection ended.
  let ended: EventLoopPromise<PriceStreamError>
  private let subscriptions: [String]
  private let maximumFrameSize: Int
  private let onInbound: @Sendable (WebSocketInbound, Duration) -> PriceStreamError?
  private let readOnTick: Bool
  /// Read on the tick, and the kernel tells when the data came (decided once subscribed).
  private var datedByKernel = false
  /// The connection's socket, asked directly once subscribed (Linux; ``ConnectedSocket``).
  private var socket: ConnectedSocket?
  /// How long ago the data of the read in progress came, once asked.
  private var readAge: Duration?
  private var finished = false
  private var context: ChannelHandlerContext?
  /// The drains waiting for the read they asked for to complete.
  private var draining: [Drain] = []

  init(
    ended: EventLoopPromise<PriceStreamError>, subscriptions: [String], maximumFrameSize: Int,
    readOnTick: Bool = false,
    onInbound: @escaping @Sendable (WebSocketInbound, _ receivedAgo: Duration) -> PriceStreamError?
  ) {
    self.ended = ended
    self.subscriptions = subscriptions
    self.maximumFrameSize = maximumFrameSize
    self.readOnTick = readOnTick
    self.onInbound = onInbound
  }

  func handlerAdded(context: ChannelHandlerContext) {
    self.context = context
  }

  /// Sends the subscriptions (Coinbase disconnects a client that has not subscribed within 5 s);
  /// returns how the connection ends. Called on the loop once the upgrade has completed: while
  /// this handler is being added the HTTP handlers are still in the pipeline, and a frame written
  /// then would reach the HTTP encoder.
  func subscribe() -> EventLoopFuture<PriceStreamError> {
    if let context, !finished {
      for subscription in subscriptions {
        context.write(
          wrapOutboundOut(
            WebSocketFrame(
              fin: true, opcode: .text, maskKey: .random(),
              data: ByteBuffer(string: subscription))),
          promise: nil)
      }
      if !subscriptions.isEmpty { context.flush() }
      // From here on frames are read when a tick drains them. The upgrade and the subscriptions
      // were read and written with autoRead on: a handshake must not wait for a tick.
      if readOnTick {
        try? context.channel.syncOptions?.setOption(.autoRead, value: false)
        socket = ConnectedSocket.of(context.channel)
        datedByKernel = lastDataAge(of: context.channel) != nil
      }
    }
    return ended.futureResult
  }

  /// Sends `text` as one masked text frame, once subscribed and while the connection lasts.
  /// Called on the loop.
  func send(_ text: String) {
    guard let context, !finished else { return }
    context.writeAndFlush(
      wrapOutboundOut(
        WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(string: text))
      ),
      promise: nil)
  }

  /// Reads what the kernel has buffered for this connection, hands it to the runner, answers
  /// the pings in it, and calls `done` once that read is complete; at once when the kernel holds
  /// nothing for it (a frame that arrives later is read by the next drain where the kernel dates
  /// frames, else as it arrives: the read stays asked for) or when the connection has ended;
  /// after `bound` at the latest. `done` is called once, on the loop. Called on the loop.
  ///
  /// Why not simply wait `bound` when nothing comes: SwiftNIO keeps a cancelled timer's clock
  /// armed, so the bound would wake the process after every tick, read or not
  /// (docs/PERFORMANCE.md, "Streams"). Asking the kernel first ends an
  /// empty drain with no timer; a drain that has bytes to read looks first after
  /// ``checkStep``, a timer short enough to have run out before the tick is over, so the loop
  /// does not sleep on it.
  ///
  /// Why a callback and a scheduled callback, not futures: each `EventLoopFuture` looks up its
  /// generic metadata several times in SwiftNIO's unspecialized code, and a drain runs every
  /// tick (docs/PERFORMANCE.md, "Streams").
  func drain(within bound: TimeAmount, then done: @escaping () -> Void) {
    guard let context, !finished else { return done() }
    let buffered = kernelHoldsBytes(for: context.channel)
    // Dated by the kernel, a frame that comes after this drain waits for the next one: nothing
    // is read between ticks.
    if buffered == false, datedByKernel { return done() }
    context.read()
    if buffered == false { return done() }
    let drain = Drain(done)
    draining.append(drain)
    // Without an answer from the kernel, wait the whole bound.
    let step = buffered == nil ? bound : min(Self.checkStep, bound)
    check(drain, every: step, until: .now() + bound)
  }

  /// When a drain first looks whether the bytes it was called for are still unread: readable
  /// data is handled before scheduled tasks in the loop's turn, so they usually are read before
  /// the first look. If they are not, the loop's turn came late, and each next look waits twice
  /// as long: a timer already due when the loop finishes its tasks would run before the loop
  /// reads its sockets, so looks at a fixed short step could keep a slow loop (a loaded machine,
  /// valgrind) from ever reading them before the bound.
  static let checkStep = TimeAmount.microseconds(50)

  /// One drain waiting for its read: told once, by the read's completion, the connection's end
  /// or its last look, which is then called off.
  private final class Drain {
    private var done: (() -> Void)?
    var look: NIOScheduledCallback?

    init(_ done: @escaping () -> Void) {
      self.done = done
    }

    func tell() {
      look?.cancel()
      look = nil
      let done = self.done
      self.done = nil
      done?()
    }
  }

  /// A drain's next look, as a scheduled callback of the loop (no promise, no future).
  private struct Look: NIOScheduledCallbackHandler {
    let reader: WebSocketFrameReader
    let drain: Drain
    let step: TimeAmount
    let deadline: NIODeadline

    func handleScheduledCallback(eventLoop: some EventLoop) {
      drain.look = nil
      reader.look(drain, every: step, until: deadline)
    }
  }

  /// Ends `drain` once the kernel holds nothing more for the connection (what it held was read,
  /// or was no frame: TLS records of its own) or at `deadline`, looking after `step`, then twice
  /// as long each time; does nothing once the read has completed it.
  private func check(_ drain: Drain, every step: TimeAmount, until deadline: NIODeadline) {
    guard let context else { return }
    do {
      drain.look = try context.eventLoop.assumeIsolated().scheduleCallback(
        in: step, handler: Look(reader: self, drain: drain, step: step, deadline: deadline))
    } catch {
      // The loop is shutting down: nothing more will be read.
      draining.removeAll { $0 === drain }
      drain.tell()
    }
  }

  /// A look of ``check(_:every:until:)``'s.
  private func look(_ drain: Drain, every step: TimeAmount, until deadline: NIODeadline) {
    guard draining.contains(where: { $0 === drain }) else { return }
    if NIODeadline.now() < deadline, let context,
      kernelHoldsBytes(for: context.channel) == true
    {
      return check(drain, every: step * 2, until: deadline)
    }
    draining.removeAll { $0 === drain }
    drain.tell()
  }

  /// Whether the kernel holds bytes this connection has not read yet; nil where we cannot ask.
  /// Asked of the socket itself where it was found (Linux), else through SwiftNIO.
  private func kernelHoldsBytes(for channel: any Channel) -> Bool? {
    #if os(Linux)
      if let socket { return socket.holdsUnreadBytes }
    #endif
    return Self.kernelHoldsBytes(for: channel)
  }

  /// The same, through SwiftNIO's socket options. Linux: the first word of `SO_MEMINFO` is the
  /// memory of the socket's receive queue (zero when nothing waits); Darwin: `SO_NREAD`, the
  /// bytes readable.
  static func kernelHoldsBytes(for channel: any Channel) -> Bool? {
    #if os(Linux)
      let name = ConnectedSocket.memoryInfoOption
    #elseif canImport(Darwin)
      let name: CInt = 0x1020  // SO_NREAD
    #else
      return nil
    #endif
    let option = ChannelOptions.Types.SocketOption(
      level: .socket, name: NIOBSDSocket.Option(rawValue: name))
    guard let value = try? channel.syncOptions?.getOption(option) else { return nil }
    // The option reads as many bytes as an Int has: on Linux two words of the array, of which
    // the first is the one we want.
    return Int(value) & 0xFFFF_FFFF != 0
  }

  func channelReadComplete(context: ChannelHandlerContext) {
    let drained = !draining.isEmpty
    readAge = nil
    completeDrains()
    context.fireChannelReadComplete()
    // Where the kernel cannot date the data: after a drain that read something, the next frame
    // is read as soon as it arrives (one more wake-up at most until the next drain, whatever the
    // rate), so that it is dated when it came. A trade that arrived just after a drain would
    // otherwise look one interval younger than it is, and a stream that has just fallen silent
    // would be read a tick too long.
    if drained, readOnTick, !datedByKernel, !finished { context.read() }
  }

  /// How long ago the data being read reached the machine: asked of the kernel once a read.
  private func receivedAgo(_ context: ChannelHandlerContext) -> Duration {
    guard datedByKernel else { return .zero }
    if let readAge { return readAge }
    let age = lastDataAge(of: context.channel) ?? .zero
    readAge = age
    return age
  }

  /// How long ago the kernel last received data on the connection's socket (`TCP_INFO`, to the
  /// kernel's tick of a few milliseconds); nil where it cannot tell. Asked of the socket itself
  /// where it was found (Linux), else through SwiftNIO.
  private func lastDataAge(of channel: any Channel) -> Duration? {
    #if os(Linux)
      if let socket { return socket.lastDataAge }
    #endif
    return Self.lastDataAge(of: channel)
  }

  /// The same, through SwiftNIO's socket option provider. Called on the loop, where the socket
  /// option's future is already complete.
  static func lastDataAge(of channel: any Channel) -> Duration? {
    #if os(Linux)
      guard let provider = channel as? any SocketOptionProvider else { return nil }
      var age: Duration?
      provider.getTCPInfo().assumeIsolated().whenSuccess { info in
        age = .milliseconds(Int(info.tcpi_last_data_recv))
      }
      return age
    #else
      return nil
    #endif
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard !finished else { return }
    let frame = unwrapInboundIn(data)
    let message: WebSocketInbound
    switch frame.opcode {
    case .ping:
      context.writeAndFlush(
        wrapOutboundOut(
          WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)),
        promise: nil)
      message = .ping
    case .pong:
      return
    case .connectionClose:
      var data = frame.unmaskedData
      return finish(context, .closed(code: data.readInteger(as: UInt16.self).map(Int.init)))
    case .text:
      if let refusal = Self.refusal(of: frame) { return finish(context, refusal) }
      let bytes = frame.unmaskedData.readableBytesView
      guard let text = String(strictUTF8: bytes) else {
        return finish(context, .protocolViolation("text frame is not UTF-8"))
      }
      message = .text(text)
    case .binary:
      return finish(context, .protocolViolation("binary frame"))
    default:
      return finish(context, .protocolViolation("fragmented frame"))
    }
    if let error = onInbound(message, receivedAgo(context)) { finish(context, error) }
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    let streamError: PriceStreamError =
      switch error {
      case NIOWebSocketError.invalidFrameLength: .frameTooLarge(limit: maximumFrameSize)
      case let error as NIOWebSocketError: .protocolViolation("\(error)")
      default: .unreachable(String(describing: error))
      }
    finish(context, streamError)
  }

  func channelInactive(context: ChannelHandlerContext) {
    if !finished {
      finished = true
      ended.succeed(.closed(code: nil))
    }
    completeDrains()
    context.fireChannelInactive()
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    self.context = nil
    if !finished {
      finished = true
      ended.succeed(.closed(code: nil))
    }
    completeDrains()
  }

  private func finish(_ context: ChannelHandlerContext, _ error: PriceStreamError) {
    guard !finished else { return }
    finished = true
    ended.succeed(error)
    context.close(promise: nil)
    completeDrains()
  }

  private func completeDrains() {
    guard !draining.isEmpty else { return }
    let drains = draining
    draining = []
    for drain in drains { drain.tell() }
  }

  private static func refusal(of frame: WebSocketFrame) -> PriceStreamError? {
    if frame.rsv1 || frame.rsv2 || frame.rsv3 {
      return .protocolViolation("compressed or extended frame (none negotiated)")
    }
    if !frame.fin { return .protocolViolation("fragmented frame") }
    return nil
  }
}
