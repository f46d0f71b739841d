/// Why a proxy did not take a request to its source, in words and with advice. Never carries the
/// proxy's credentials.
public enum ProxyFailure: Error, Equatable, Sendable, CustomStringConvertible {
  /// 407: the proxy wants (other) credentials.
  case authenticationRequired(proxy: String, sentCredentials: Bool)
  /// Any other refusal of CONNECT (403 and the like), with the proxy's status.
  case refused(proxy: String, status: Int)
  /// The proxy itself cannot be reached.
  case unreachable(proxy: String, reason: String)
  /// The proxy closed the connection before the tunnel was up.
  case closedTunnel(proxy: String)
  /// A SOCKS5 proxy refused the connection, with its reply in words.
  case socksRefused(proxy: String, reason: String)
  /// The proxy's URL asks for something this client cannot do.
  case unsupported(proxy: String, reason: String)

  public var description: String {
    switch self {
    case .authenticationRequired(let proxy, let sent):
      return sent
        ? "the proxy \(proxy) refused the user name and password in its URL (407)"
          + " — check them, or ask your administrator which account it expects"
        : "the proxy \(proxy) wants a user name and password (407)"
          + " — give them in the proxy URL: http://user:password@host:port"
    case .refused(let proxy, let status):
      return "the proxy \(proxy) refused to connect to the source (\(status))"
        + (status == 403
          ? " — it may block this site or this port; ask your administrator to allow it,"
            + " or add the host to no-proxy if it is reachable directly"
          : "")
    case .unreachable(let proxy, let reason):
      return "cannot reach the proxy \(proxy): \(reason)"
        + " — check the proxy setting or $https_proxy / $all_proxy"
    case .closedTunnel(let proxy):
      return "the proxy \(proxy) closed the connection before the tunnel was open"
        + " — it may not allow CONNECT, or this is not an HTTP proxy (try socks5h://)"
    case .socksRefused(let proxy, let reason):
      return "the SOCKS proxy \(proxy) refused: \(reason)"
    case .unsupported(let proxy, let reason):
      return "the proxy \(proxy) cannot be used: \(reason)"
    }
  }
}
