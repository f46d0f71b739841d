#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every viewer of `serve` is a file descriptor; so are the cache, the state file, the sockets to
/// the exchanges and the runtime's own. The server takes what the process may open, less a margin
/// for those.
public enum OpenFileLimit {
  /// Descriptors kept back from the viewers for everything else the process opens.
  public static let reserved = 64
  /// The highest soft limit asked for, however high the hard limit is.
  public static let ceiling = 1 << 20

  /// The soft limit raised to the hard one (at most ``ceiling``), and returned; 1,024 when the
  /// limits cannot be read.
  public static func raise() -> Int {
    var limit = rlimit()
    #if canImport(Glibc)
      let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
      let resource = RLIMIT_NOFILE
    #endif
    guard getrlimit(resource, &limit) == 0 else { return 1_024 }
    let wanted = min(limit.rlim_max, rlim_t(ceiling))
    if limit.rlim_cur < wanted {
      var raised = limit
      raised.rlim_cur = wanted
      if setrlimit(resource, &raised) == 0 { limit = raised }
    }
    return Int(limit.rlim_cur)
  }

  /// The connections the server may hold open when the process may open `limit` files: all but
  /// ``reserved``, and at least one.
  public static func maximumConnections(forOpenFiles limit: Int) -> Int {
    max(1, limit - reserved)
  }
}
