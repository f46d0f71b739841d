import NIOCore
import NIOEmbedded

/// Hands `input` to `channel`'s inbound side `size` bytes a read (0: in one read), while the
/// channel is open: how the peer's bytes reach the NIO targets' pipelines.
func writeInbound(_ input: [UInt8], readSize size: Int, to channel: EmbeddedChannel) throws {
  for part in oracleReads(of: input, size: size) {
    guard channel.isActive else { break }
    try channel.writeInbound(ByteBuffer(bytes: part))
  }
}

/// What follows a proxy's tunnel: keeps every byte it is handed.
final class ByteRecorder: ChannelInboundHandler {
  typealias InboundIn = ByteBuffer
  private(set) var received: [UInt8] = []

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    received += unwrapInboundIn(data).readableBytesView
  }
}
