import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// Sits just before SwiftNIO's typed upgrade handler, which drops the head of a response that
/// does not upgrade: it keeps that head's status and `Retry-After`, so a refused handshake (451,
/// 403, 418, 429) becomes a typed refusal that can join the limits kept across runs. It removes
/// itself after the head: what follows an upgrade is WebSocket frames, not HTTP.
final class UpgradeResponseRecorder: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPClientResponsePart
  typealias InboundOut = HTTPClientResponsePart

  /// The head of the answer to the upgrade request, once it has arrived.
  struct Answer: Equatable, Sendable {
    let status: Int
    let retryAfter: String?
  }

  private let answer: NIOLockedValueBox<Answer?>

  init(answer: NIOLockedValueBox<Answer?>) {
    self.answer = answer
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if case .head(let head) = unwrapInboundIn(data) {
      answer.withLockedValue {
        $0 = Answer(
          status: Int(head.status.code), retryAfter: head.headers.first(name: "retry-after"))
      }
      context.fireChannelRead(data)
      context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
      return
    }
    context.fireChannelRead(data)
  }
}
