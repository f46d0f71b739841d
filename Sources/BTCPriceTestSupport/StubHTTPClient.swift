import BTCPriceCore
import BTCPriceNetworking
import Foundation

/// The test value of ``HTTPClient``, beside the interface: one scripted answer (a response, a
/// transport failure, or none ever), every request recorded. For unit tests of what sits on
/// the interface; the transports themselves are tested against a real server on 127.0.0.1
/// (``HTTPClientContractSpecs``).
public final class StubHTTPClient: HTTPClient {
  public enum Answer: Sendable {
    case response(HTTPResponse)
    case failure(HTTPClientError)
    /// Never answers; returns only when cancelled.
    case never
  }

  private let answer: Answer
  private let recorded = Locked<[HTTPRequest]>([])

  public init(_ answer: Answer) {
    self.answer = answer
  }

  /// Answers every request with `status` and `body`.
  public convenience init(status: Int = 200, body: String) {
    self.init(.response(HTTPResponse(status: status, body: Data(body.utf8))))
  }

  /// A client that never answers: a source that hangs.
  public static var neverAnswering: StubHTTPClient { StubHTTPClient(.never) }

  /// Every request so far, oldest first.
  public var requests: [HTTPRequest] { recorded.value }

  public func get(_ request: HTTPRequest) async throws -> HTTPResponse {
    recorded.withValue { $0.append(request) }
    switch answer {
    case .response(let response): return response
    case .failure(let error): throw error
    case .never:
      let (never, continuation) = AsyncStream.makeStream(of: Never.self)
      for await _ in never {}
      continuation.finish()
      throw CancellationError()
    }
  }
}
