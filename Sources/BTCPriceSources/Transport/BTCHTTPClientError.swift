#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A transport failure: no complete HTTP answer arrived.
public enum BTCHTTPClientError: Error, Equatable, Sendable, CustomStringConvertible {
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
