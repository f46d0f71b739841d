// xnu-11417.101.15 bsd/sys/_types/_timespec.h; here because `struct stat` holds it.

/// `struct timespec { __darwin_time_t tv_sec; long tv_nsec; }` (_timespec.h:33)
public struct timespec: Sendable {
  public var tv_sec: time_t
  public var tv_nsec: Int
  public init() { fatalError() }
  public init(tv_sec: time_t, tv_nsec: Int) { fatalError() }
}

