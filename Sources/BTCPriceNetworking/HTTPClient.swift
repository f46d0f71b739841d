#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The transport the remote loaders need: one GET, a bounded body, nothing else.
///
/// Adapters (SwiftNIO for the CLI, URLSession for Apple apps) must:
/// - deliver any status with its body; a status is not an error at this level;
/// - stop reading and throw ``HTTPClientError/bodyTooLarge(limit:)`` past `maxBodySize`;
/// - map transport failures to ``HTTPClientError``;
/// - honour task cancellation promptly (deadlines are enforced by cancelling the task);
/// - reuse connections between calls.
public protocol HTTPClient: Sendable {
  func get(_ request: HTTPRequest) async throws -> HTTPResponse
}

public struct HTTPRequest: Equatable, Sendable {
  public var url: URL
  /// Header fields in the order they are sent.
  public var headers: [(name: String, value: String)]
  public var maxBodySize: Int
  /// A body makes the request a POST (serve's alert webhook); without one it is a GET.
  public var body: Data?

  public init(
    url: URL, headers: [(name: String, value: String)] = [], maxBodySize: Int = 64 * 1024,
    body: Data? = nil
  ) {
    self.url = url
    self.headers = headers
    self.maxBodySize = maxBodySize
    self.body = body
  }

  public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
    lhs.url == rhs.url && lhs.maxBodySize == rhs.maxBodySize && lhs.body == rhs.body
      && lhs.headers.map(\.name) == rhs.headers.map(\.name)
      && lhs.headers.map(\.value) == rhs.headers.map(\.value)
  }

  /// The value of the first header with this name, compared case-insensitively.
  public func header(_ name: String) -> String? {
    let name = name.lowercased()
    return headers.first { $0.name.lowercased() == name }?.value
  }
}

public struct HTTPResponse: Equatable, Sendable {
  public var status: Int
  /// Header names are lowercased.
  public var headers: [String: String]
  public var body: Data

  public init(status: Int, headers: [String: String] = [:], body: Data) {
    self.status = status
    self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
    self.body = body
  }
}

/// A transport failure: no complete HTTP answer arrived.
public enum HTTPClientError: Error, Equatable, Sendable, CustomStringConvertible {
  case connectionRefused
  case connectionReset
  case hostNotFound
  case tlsFailure(String)
  case timedOut
  case bodyTooLarge(limit: Int)
  /// The proxy refused or dropped the way to the source.
  case proxy(ProxyFailure)
  case other(String)

  public var description: String {
    switch self {
    case .connectionRefused: return "connection refused"
    case .connectionReset: return "connection reset"
    case .hostNotFound: return "host not found"
    case .tlsFailure(let reason): return "TLS failure: \(reason)"
    case .timedOut: return "transport timed out"
    case .bodyTooLarge(let limit): return "response body over \(limit) bytes"
    case .proxy(let failure): return failure.description
    case .other(let reason): return reason
    }
  }
}
