import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// One HTTP/1.1 GET whose body is read as it arrives: `serve`'s event stream and an nchan edge's
/// (`/api/stream`), which end only when the server ends them. Plain `http://` only, as the tests'
/// servers on 127.0.0.1 speak it. The product's `NIOHTTPClient` hands back whole bodies, so it
/// cannot read a stream; this is the one thing AsyncHTTPClient still did for the tests.
///
/// ``body`` finishes when the body ends as HTTP frames it (a chunked body's last chunk, or its
/// `Content-Length`) and throws ``HTTPStreamReaderError/closedBeforeTheEnd`` when the connection
/// closes before that, so a reader can tell a stream the server ended cleanly from a cut one.
/// Stopping the iteration (a cancelled task) or ``close()`` closes the connection.
public final class HTTPStreamReader: Sendable {
  public let status: Int
  /// Header names lowercased; a name sent more than once keeps its last value.
  public let headers: [String: String]
  /// The body's bytes, as the server writes them.
  public let body: AsyncThrowingStream<ByteBuffer, any Error>
  private let channel: any Channel

  private init(
    status: Int, headers: [String: String], body: AsyncThrowingStream<ByteBuffer, any Error>,
    channel: any Channel
  ) {
    self.status = status
    self.headers = headers
    self.body = body
    self.channel = channel
  }

  deinit {
    channel.close(promise: nil)
  }

  /// Connects, sends the GET with `headers` (and `Host`), and returns once the answer's head has
  /// come; its body is then read through ``body``.
  public static func open(
    _ url: String, headers: [(name: String, value: String)] = [],
    group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
  ) async throws -> HTTPStreamReader {
    guard let parsed = URL(string: url), parsed.scheme == "http", let host = parsed.host else {
      throw HTTPStreamReaderError.notPlainHTTP(url)
    }
    let port = parsed.port ?? 80
    let (body, sink) = AsyncThrowingStream.makeStream(of: ByteBuffer.self)
    let head = group.next().makePromise(of: HTTPResponseHead.self)
    let channel: any Channel
    do {
      channel = try await ClientBootstrap(group: group)
        .connectTimeout(.seconds(10))
        .channelInitializer { channel in
          channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHTTPClientHandlers()
            try channel.pipeline.syncOperations.addHandler(
              StreamingResponseHandler(head: head, body: sink))
          }
        }
        .connect(host: host, port: port).get()
    } catch {
      head.fail(error)
      sink.finish(throwing: error)
      throw error
    }
    sink.onTermination = { _ in channel.close(promise: nil) }

    var fields = HTTPHeaders([("Host", "\(host):\(port)")])
    for (name, value) in headers { fields.add(name: name, value: value) }
    var target = parsed.path.isEmpty ? "/" : parsed.path
    if let query = parsed.query { target += "?" + query }
    let request = HTTPRequestHead(version: .http1_1, method: .GET, uri: target, headers: fields)
    channel.write(HTTPClientRequestPart.head(request), promise: nil)
    try await channel.writeAndFlush(HTTPClientRequestPart.end(nil))

    let answer = try await head.futureResult.get()
    var named: [String: String] = [:]
    for (name, value) in answer.headers { named[name.lowercased()] = value }
    return HTTPStreamReader(
      status: Int(answer.status.code), headers: named, body: body, channel: channel)
  }

  /// Everything the body still holds, until it ends (or throws).
  public func collectText() async throws -> String {
    var text = ""
    for try await chunk in body { text += String(buffer: chunk) }
    return text
  }

  /// Closes the connection, as a viewer closing the page does.
  public func close() {
    channel.close(promise: nil)
  }
}

public enum HTTPStreamReaderError: Error, Equatable {
  /// Only `http://` URLs with a host.
  case notPlainHTTP(String)
  /// The connection closed before the answer's head came.
  case closedBeforeTheHead
  /// The connection closed before the body's end, as HTTP frames it.
  case closedBeforeTheEnd
}

/// Hands the head to a promise and each part of the body to the stream, on the channel's loop.
private final class StreamingResponseHandler: ChannelInboundHandler {
  typealias InboundIn = HTTPClientResponsePart

  private let head: EventLoopPromise<HTTPResponseHead>
  private let body: AsyncThrowingStream<ByteBuffer, any Error>.Continuation
  private var headReceived = false
  private var ended = false

  init(
    head: EventLoopPromise<HTTPResponseHead>,
    body: AsyncThrowingStream<ByteBuffer, any Error>.Continuation
  ) {
    self.head = head
    self.body = body
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let answer):
      headReceived = true
      head.succeed(answer)
    case .body(let bytes):
      body.yield(bytes)
    case .end:
      ended = true
      body.finish()
      context.close(promise: nil)
    }
  }

  func channelInactive(context: ChannelHandlerContext) {
    head.fail(HTTPStreamReaderError.closedBeforeTheHead)
    if !ended { body.finish(throwing: HTTPStreamReaderError.closedBeforeTheEnd) }
    context.fireChannelInactive()
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    // The decoder says so when the connection closes mid-answer.
    let error: any Error =
      (error as? HTTPParserError) == .invalidEOFState
      ? (headReceived
        ? HTTPStreamReaderError.closedBeforeTheEnd : HTTPStreamReaderError.closedBeforeTheHead)
      : error
    head.fail(error)
    if !ended { body.finish(throwing: error) }
    ended = true
    context.close(promise: nil)
  }
}
