import NIOCore
import NIOWebSocket

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The last handler of one upgraded stream: keeps the price text of the newest message that has
/// `field` (a byte search, no JSON tree: this is a floor), answers pings, and tells the tick when
/// a read the tick asked for is complete. Lives on the connection's event loop.
final class FloorStreamReader: ChannelInboundHandler {
  typealias InboundIn = WebSocketFrame
  typealias OutboundOut = WebSocketFrame

  /// The price text of the newest message with the field; empty until the first.
  private(set) var latest: [UInt8] = []
  /// A read the tick asked for has not completed yet.
  private(set) var awaitingTickRead = false
  /// Called once a read the tick asked for is complete.
  var onTickRead: () -> Void = {}
  /// The connection's socket, for asking the kernel whether it holds unread bytes.
  let descriptor: CInt
  private let field: [UInt8]
  private var context: ChannelHandlerContext?

  init(field: String, descriptor: CInt) {
    self.field = Array(field.utf8)
    self.descriptor = descriptor
    latest.reserveCapacity(32)
  }

  func handlerAdded(context: ChannelHandlerContext) {
    self.context = context
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    self.context = nil
  }

  /// Sends `subscription` as a masked text frame; then, with `readOnTick`, reads only when
  /// ``readForTick()`` asks. Called once the upgrade is complete (before, a frame would reach
  /// the HTTP encoder still in the pipeline).
  func start(subscription: String?, readOnTick: Bool) {
    guard let context else { return }
    if let subscription {
      context.writeAndFlush(
        wrapOutboundOut(
          WebSocketFrame(
            fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(string: subscription))),
        promise: nil)
    }
    if readOnTick {
      try? context.channel.syncOptions?.setOption(.autoRead, value: false)
    }
  }

  /// Asks for one read when the kernel holds bytes for this connection; returns whether it did.
  /// A read asked for on an empty socket would stay armed and wake the loop for the next frame,
  /// a wake-up between ticks that reading on the tick is there to avoid.
  func readForTick() -> Bool {
    guard let context, kernelHoldsBytes() else { return false }
    awaitingTickRead = true
    context.read()
    return true
  }

  func cancelTickRead() {
    awaitingTickRead = false
  }

  /// Straight from the descriptor (FIONREAD): one system call, none of SwiftNIO's generic
  /// socket-option machinery. Where the request does not import (Darwin), always read.
  private func kernelHoldsBytes() -> Bool {
    #if os(Linux)
      var count: CInt = 0
      return ioctl(descriptor, UInt(FIONREAD), &count) != 0 || count > 0
    #else
      return true
    #endif
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let frame = unwrapInboundIn(data)
    switch frame.opcode {
    case .text:
      frame.unmaskedData.withUnsafeReadableBytes { keepPrice(from: $0) }
    case .ping:
      context.writeAndFlush(
        wrapOutboundOut(
          WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)),
        promise: nil)
    case .connectionClose:
      context.close(promise: nil)
    default:
      break
    }
  }

  func channelReadComplete(context: ChannelHandlerContext) {
    context.fireChannelReadComplete()
    guard awaitingTickRead else { return }
    awaitingTickRead = false
    onTickRead()
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    context.close(promise: nil)
  }

  /// The text between `field` (which ends with the value's opening quote) and the next quote,
  /// copied once (each touch of a class's stored property is a dynamic exclusivity check).
  private func keepPrice(from bytes: UnsafeRawBufferPointer) {
    guard let start = field.withUnsafeBytes({ Self.end(of: $0, in: bytes) }) else { return }
    var end = start
    while end < bytes.count, bytes[end] != UInt8(ascii: "\""), end - start < 32 { end += 1 }
    latest.removeAll(keepingCapacity: true)
    latest.append(contentsOf: bytes[start..<end])
  }

  /// Where the first `needle` in `bytes` ends; found with libc's `memchr` and `memcmp`, as the C
  /// floor finds it with `strstr` (glibc's `memmem` does not import).
  private static func end(of needle: UnsafeRawBufferPointer, in bytes: UnsafeRawBufferPointer)
    -> Int?
  {
    guard let base = bytes.baseAddress, let wanted = needle.baseAddress, let first = needle.first
    else { return nil }
    var at = 0
    while bytes.count - at >= needle.count,
      let hit = memchr(base + at, CInt(first), bytes.count - at - needle.count + 1)
    {
      at = base.distance(to: UnsafeRawPointer(hit))
      if memcmp(hit, wanted, needle.count) == 0 { return at + needle.count }
      at += 1
    }
    return nil
  }
}
