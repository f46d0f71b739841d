#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A whole answer: any status (a status is not an error at this level), its headers and its
/// body, read up to the request's limit.
public struct BTCHTTPResponse: Equatable, Sendable {
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
