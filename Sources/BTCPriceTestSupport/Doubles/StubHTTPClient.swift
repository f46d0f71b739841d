import BTCPriceCore
import BTCPriceRuntime
import BTCPriceSources
import Foundation

/// The test value of ``BTCHTTPClient``, beside the interface: one scripted answer (a response, a
/// transport failure, or none ever), every request recorded. For unit tests of what sits on
/// the interface; the transports themselves are tested against a real server on 127.0.0.1
/// (``HTTPClientContractSpecs``).
public final class StubHTTPClient: BTCHTTPClient {
  public enum Answer: Sendable {
    case response(BTCHTTPResponse)
    case failure(BTCHTTPClientError)
    /// Never answers; returns only when cancelled.
    case never
  }

  private let answer: Answer
  private let recorded = Locked<[BTCHTTPRequest]>([])

  public init(_ answer: Answer) {
    self.answer = answer
  }

  /// Answers every request with `status` and `body`.
  public convenience init(status: Int = 200, body: String) {
    self.init(.response(BTCHTTPResponse(status: status, body: Data(body.utf8))))
  }

  /// A client that never answers: a source that hangs.
  public static var neverAnswering: StubHTTPClient { StubHTTPClient(.never) }

  /// Every request so far, oldest first.
  public var requests: [BTCHTTPRequest] { recorded.value }

  /// The host of every request so far, oldest first.
  public var hosts: [String] { recorded.value.map { $0.url.host ?? "" } }

  public func get(_ request: BTCHTTPRequest) async throws -> BTCHTTPResponse {
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
