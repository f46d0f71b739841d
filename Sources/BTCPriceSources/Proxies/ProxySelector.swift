import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Which proxy, if any, a request goes through, decided as curl decides it (curl(1),
/// "ENVIRONMENT"):
/// - `--proxy URL` (or the `proxy` setting) wins over the environment; an empty one turns the
///   environment's proxies off;
/// - otherwise `<scheme>_proxy`: `http_proxy` in lower case only (an `HTTP_PROXY` may come from a
///   web request's `Proxy:` header under CGI, so curl ignores it), `https_proxy` or
///   `HTTPS_PROXY` for https://, `wss_proxy`/`WSS_PROXY` then the https ones for wss://,
///   `ws_proxy`/`WS_PROXY` then `http_proxy` for ws://; then `all_proxy` or `ALL_PROXY`;
///   the lower-case spelling wins when both are set;
/// - `--no-proxy` / the `no-proxy` setting, else `no_proxy` / `NO_PROXY`, lists the hosts that
///   go direct (``NoProxyList``), whichever proxy was chosen.
public struct ProxySelector: Equatable, Sendable {
  /// Where the chosen proxy came from, for `--verbose` and `doctor`.
  public enum Origin: Equatable, Sendable, CustomStringConvertible {
    case setting
    case environment(variable: String)

    public var description: String {
      switch self {
      case .setting: "the proxy setting"
      case .environment(let variable): "$\(variable)"
      }
    }
  }

  /// One route: the proxy and where it came from, or nil for a direct connection.
  public struct Route: Equatable, Sendable {
    public let proxy: ProxyEndpoint
    public let origin: Origin

    public init(proxy: ProxyEndpoint, origin: Origin) {
      self.proxy = proxy
      self.origin = origin
    }
  }

  private let explicit: String?
  private let environment: [String: String]
  private let noProxy: NoProxyList

  /// - Parameters:
  ///   - explicit: `--proxy` or the `proxy` setting; nil when neither is given.
  ///   - noProxy: `--no-proxy` or the `no-proxy` setting; nil to read the environment's.
  public init(explicit: String?, noProxy: String? = nil, environment: [String: String]) {
    self.explicit = explicit
    self.environment = environment
    self.noProxy = NoProxyList(
      noProxy ?? Self.first(["no_proxy", "NO_PROXY"], in: environment)?.value ?? "")
  }

  /// The route for `url`; throws when the chosen proxy's URL cannot be used.
  public func route(for url: URL) throws(ProxyURLError) -> Route? {
    guard let host = url.host(percentEncoded: false), !noProxy.matches(host) else { return nil }
    if let explicit {
      guard !explicit.trimmingWhitespace.isEmpty else { return nil }
      return Route(proxy: try ProxyEndpoint(parsing: explicit), origin: .setting)
    }
    let scheme = url.scheme?.lowercased() ?? "http"
    let names: [String]
    switch scheme {
    case "https": names = ["https_proxy", "HTTPS_PROXY"]
    case "wss": names = ["wss_proxy", "WSS_PROXY", "https_proxy", "HTTPS_PROXY"]
    case "ws": names = ["ws_proxy", "WS_PROXY", "http_proxy"]
    default: names = ["http_proxy"]
    }
    guard
      let (variable, value) = Self.first(names, in: environment)
        ?? Self.first(["all_proxy", "ALL_PROXY"], in: environment)
    else { return nil }
    return Route(proxy: try ProxyEndpoint(parsing: value), origin: .environment(variable: variable))
  }

  /// The route in words, for `--verbose` and `doctor`: `through http://***@proxy:3128 (from
  /// $https_proxy)`, `direct (no-proxy lists it)` or `direct`. Never shows credentials.
  public func explain(for url: URL) -> String {
    do {
      if let route = try route(for: url) {
        return "through \(route.proxy.redacted) (from \(route.origin))"
      }
    } catch {
      return "nowhere: \(error)"
    }
    let host = url.host(percentEncoded: false) ?? ""
    return noProxy.matches(host) && hasProxy ? "direct (no-proxy lists it)" : "direct"
  }

  /// Whether any proxy is set at all.
  private var hasProxy: Bool {
    if let explicit { return !explicit.trimmingWhitespace.isEmpty }
    return environment.contains { name, value in
      name.lowercased().hasSuffix("_proxy") && name.lowercased() != "no_proxy"
        && !value.trimmingWhitespace.isEmpty
    }
  }

  private static func first(
    _ names: [String], in environment: [String: String]
  ) -> (name: String, value: String)? {
    for name in names {
      if let value = environment[name], !value.trimmingWhitespace.isEmpty {
        return (name, value)
      }
    }
    return nil
  }
}
