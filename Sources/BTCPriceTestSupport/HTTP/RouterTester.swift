import HTTPTypes
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded

/// A Hummingbird router answering requests in-process, with no socket: the request and its
/// context are made the way HummingbirdTesting's router test framework makes them (an empty
/// body, a context on a testing channel), the responder answers, and the response's body is
/// written into one buffer. A thrown error becomes a 500, as the live server makes it.
///
/// What only a connection shows (a stream the fan-out writes to the connection itself, the
/// limits on connections and heads) needs ``withRunningApplication(_:_:)`` instead.
public struct RouterTester<Responder: HTTPResponder>: Sendable
where Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
  /// One answer, whole.
  public struct Answer: Sendable {
    public let status: HTTPResponse.Status
    public let headers: HTTPFields
    public let body: ByteBuffer

    /// The body as UTF-8 text.
    public var text: String { String(buffer: body) }
  }

  private let responder: Responder
  private let logger = Logger(label: "RouterTester")

  public init<Builder: HTTPResponderBuilder>(_ router: Builder)
  where Builder.Responder == Responder {
    responder = router.buildResponder()
  }

  /// `uri` is the request's path and query.
  public func execute(
    uri: String, method: HTTPRequest.Method = .get, headers: HTTPFields = [:]
  ) async throws -> Answer {
    let request = Request(
      head: HTTPRequest(
        method: method, scheme: "http", authority: "localhost", path: uri,
        headerFields: headers),
      body: RequestBody(buffer: ByteBuffer()))
    let context = Responder.Context(
      source: ApplicationRequestContextSource(channel: NIOAsyncTestingChannel(), logger: logger))
    let response: Response
    do {
      response = try await responder.respond(to: request, context: context)
    } catch {
      response = Response(status: .internalServerError)
    }
    let collected = NIOLockedValueBox(ByteBuffer())
    try await response.body.write(CollectingWriter(collected: collected))
    return Answer(
      status: response.status, headers: response.headers,
      body: collected.withLockedValue { $0 })
  }
}

/// Keeps every buffer a response body writes.
private struct CollectingWriter: ResponseBodyWriter {
  let collected: NIOLockedValueBox<ByteBuffer>

  mutating func write(_ buffer: ByteBuffer) async throws {
    _ = collected.withLockedValue { $0.writeImmutableBuffer(buffer) }
  }

  consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
