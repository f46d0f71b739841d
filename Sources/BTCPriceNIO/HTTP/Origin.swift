import BTCPriceSources

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where a request goes: scheme, host and port, the key of the connection pool.
struct Origin: Hashable, Sendable {
  let secure: Bool
  let host: String
  let port: Int

  init(_ url: URL) throws {
    switch url.scheme?.lowercased() {
    case "https": secure = true
    case "http": secure = false
    default: throw TransportError.other("unsupported URL \(url.absoluteString)")
    }
    guard let host = url.host(percentEncoded: false), !host.isEmpty else {
      throw TransportError.other("no host in \(url.absoluteString)")
    }
    self.host = host
    self.port = url.port ?? (secure ? 443 : 80)
  }

  var hostHeader: String {
    let name = host.contains(":") ? "[\(host)]" : host
    return port == (secure ? 443 : 80) ? name : "\(name):\(port)"
  }
}
