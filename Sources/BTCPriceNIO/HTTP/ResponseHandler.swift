import BTCPriceSources
import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Collects one answer at a time into an ``BTCHTTPResponse``, and tells its owner whether the
/// connection can carry the next request.
final class ResponseHandler: ChannelInboundHandler, RemovableChannelHandler {
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

  /// The context keeps its handler: kept past the pipeline's end (a closed connection), each
  /// would keep the other, and both the pipeline, for the rest of the run.
  func handlerRemoved(context: ChannelHandlerContext) {
    self.context = nil
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
      let response = BTCHTTPResponse(
        status: Int(head.status.code), headers: headers,
        body: current.body.map(Self.data(of:)) ?? Data())
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

  /// The body's bytes, copied at once: `Data(buffer.readableBytesView)` asks at run time whether
  /// the view is `ContiguousBytes`, and that first question scans every conformance record of the
  /// binary (docs/PERFORMANCE.md, "The one-shot's conformance scans").
  private static func data(of buffer: ByteBuffer) -> Data {
    buffer.withUnsafeReadableBytes { bytes in
      guard let start = bytes.baseAddress, !bytes.isEmpty else { return Data() }
      return Data(bytes: start, count: bytes.count)
    }
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
