#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One request to a source (or to serve's alert webhook): where, which headers, the largest
/// body to accept, and a body for a POST. Named with the project's prefix: HTTPTypes, which serve
/// links, has an `HTTPRequest` of its own.
public struct BTCHTTPRequest: Sendable {
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

  /// The value of the first header with this name, compared case-insensitively.
  public func header(_ name: String) -> String? {
    let name = name.lowercased()
    return headers.first { $0.name.lowercased() == name }?.value
  }
}
