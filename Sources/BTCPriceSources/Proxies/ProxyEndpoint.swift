import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A proxy to reach the sources through, parsed from a proxy URL as curl reads one:
/// `[scheme://][user:password@]host[:port]`, `http` when no scheme is given, port 1080 when none
/// is given (curl's default for every proxy scheme).
///
/// The user info becomes a `Proxy-Authorization` header and nothing else: ``description`` and
/// ``redacted`` never show it.
public struct ProxyEndpoint: Equatable, Sendable, CustomStringConvertible {
  public enum Kind: String, Equatable, Sendable {
    /// An HTTP proxy: a CONNECT tunnel for every scheme, http:// and ws:// too (curl's
    /// `--proxytunnel`; ``ProxyTunnel`` in BTCPriceNIO).
    case http
    /// SOCKS5 with the host name resolved here, before the proxy is asked.
    case socks5
    /// SOCKS5 with the host name resolved by the proxy (no DNS lookup leaves this machine).
    case socks5h
  }

  public let kind: Kind
  public let host: String
  public let port: Int
  public let username: String?
  public let password: String?

  public init(
    kind: Kind, host: String, port: Int, username: String? = nil, password: String? = nil
  ) {
    self.kind = kind
    self.host = host
    self.port = port
    self.username = username
    self.password = password
  }

  /// Parses a proxy URL, or says what is wrong with it without repeating its user info.
  public init(parsing text: String) throws(ProxyURLError) {
    let trimmed = text.trimmingWhitespace
    let withScheme = trimmed.contains("://") ? trimmed : "http://" + trimmed
    guard let components = URLComponents(string: withScheme),
      let scheme = components.scheme?.lowercased()
    else {
      throw ProxyURLError(reason: "is not a URL")
    }
    let kind: Kind
    switch scheme {
    case "http": kind = .http
    case "socks5": kind = .socks5
    case "socks5h": kind = .socks5h
    default:
      throw ProxyURLError(
        reason: "has the scheme \"\(scheme)\"; use http://, socks5:// or socks5h://")
    }
    // Empty once its brackets are off too: `[` or `[]` names no host.
    let host = components.host.map { $0.hasPrefix("[") ? String($0.dropFirst().dropLast()) : $0 }
    guard let host, !host.isEmpty else {
      throw ProxyURLError(reason: "names no host")
    }
    // The host comes percent-decoded: `al%40ice` is `al@ice`, which names no machine.
    let bracketed = components.host?.hasPrefix("[") == true
    guard
      !host.unicodeScalars.contains(where: {
        "@/?#[]% \\".unicodeScalars.contains($0) || (!bracketed && $0 == ":")
          || $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F
      })
    else {
      throw ProxyURLError(reason: "names no host")
    }
    if let port = components.port, !(1...65_535).contains(port) {
      throw ProxyURLError(reason: "has a port out of range")
    }
    self.init(
      kind: kind, host: host,
      port: components.port ?? 1080,
      username: components.user,
      password: components.password)
  }

  /// The proxy's address without its user info, for `--verbose` and `doctor`.
  public var redacted: String {
    let name = host.contains(":") ? "[\(host)]" : host
    let credentials = username == nil ? "" : "***@"
    return "\(kind.rawValue)://\(credentials)\(name):\(port)"
  }

  public var description: String { redacted }

  /// `Basic` credentials for an HTTP proxy, from the URL's user info.
  public var proxyAuthorization: String? {
    guard let username else { return nil }
    let pair = "\(username):\(password ?? "")"
    return "Basic " + Data(pair.utf8).base64EncodedString()
  }
}

/// A proxy URL that cannot be used; the reason never repeats the URL's user info.
public struct ProxyURLError: Error, Equatable, Sendable, CustomStringConvertible {
  public let reason: String
  public var description: String { "the proxy URL \(reason)" }
}
