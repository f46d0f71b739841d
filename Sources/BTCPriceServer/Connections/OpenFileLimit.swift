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

  /// The soft limit raised to the hard one (at most ``ceiling``, and at most what the system lets
  /// one process open: ``softLimit(hard:perProcess:)``), and the limit in force returned; 1,024
  /// when the limits cannot be read.
  public static func raise() -> Int {
    var limit = rlimit()
    #if canImport(Glibc)
      let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
      let resource = RLIMIT_NOFILE
    #endif
    guard getrlimit(resource, &limit) == 0 else { return 1_024 }
    let perProcess = perProcessMaximum()
    let wanted = softLimit(hard: UInt64(limit.rlim_max), perProcess: perProcess)
    if UInt64(limit.rlim_cur) < wanted {
      var raised = limit
      raised.rlim_cur = rlim_t(wanted)
      if setrlimit(resource, &raised) == 0 { limit = raised }
    }
    return Int(min(UInt64(limit.rlim_cur), perProcess ?? .max))
  }

  /// The soft limit to ask for: the hard limit, at most ``ceiling`` and at most `perProcess`,
  /// what the system lets one process open where it says (nil: no such cap).
  ///
  /// macOS's hard limit is usually `RLIM_INFINITY`, and its kernel caps every process at
  /// `kern.maxfilesperproc`: before macOS 11 `setrlimit` refused a soft limit above it with
  /// EINVAL (xnu-6153's `dosetrlimit`; setrlimit(2): "Use rlim_cur = min(OPEN_MAX, rlim_max)"),
  /// which left `serve` at launchd's 256; since xnu-7195 it accepts one and enforces the cap
  /// silently (`proc_limitgetcur_nofile`), so a higher soft limit would overstate how many
  /// viewers fit.
  public static func softLimit(hard: UInt64, perProcess: UInt64?) -> UInt64 {
    min(hard, UInt64(ceiling), perProcess ?? .max)
  }

  /// `kern.maxfilesperproc` on Darwin (`OPEN_MAX`, 10,240, when it cannot be read); nil
  /// elsewhere, where the hard limit is the whole story.
  private static func perProcessMaximum() -> UInt64? {
    #if canImport(Darwin)
      var value: CInt = 0
      var size = MemoryLayout<CInt>.size
      if sysctlbyname("kern.maxfilesperproc", &value, &size, nil, 0) == 0, value > 0 {
        return UInt64(value)
      }
      return UInt64(OPEN_MAX)
    #else
      return nil
    #endif
  }

  /// The connections the server may hold open when the process may open `limit` files: all but
  /// ``reserved``, and at least one.
  public static func maximumConnections(forOpenFiles limit: Int) -> Int {
    max(1, limit - reserved)
  }
}
