// Time: xnu-11417.101.15 bsd/sys/_types/_timespec.h and _timeval.h, Libc-1725.0.11
// include/_time.h (no nullability annotations: a pointer is implicitly unwrapped).

/// `struct timespec` is in `_DarwinTypes` (DarwinTypes/timespec.swift), as `struct stat` holds it.

/// `struct timeval { __darwin_time_t tv_sec; __darwin_suseconds_t tv_usec; }` (_timeval.h:34):
/// `tv_usec` is an `Int32` here, a `long` on glibc.
public struct timeval: Sendable {
  public var tv_sec: time_t
  public var tv_usec: suseconds_t
  public init() { _standIn() }
  public init(tv_sec: time_t, tv_usec: suseconds_t) { _standIn() }
}

/// `struct tm { int tm_sec; ... long tm_gmtoff; char *tm_zone; }` (_time.h:79)
public struct tm {
  public var tm_sec: Int32
  public var tm_min: Int32
  public var tm_hour: Int32
  public var tm_mday: Int32
  public var tm_mon: Int32
  public var tm_year: Int32
  public var tm_wday: Int32
  public var tm_yday: Int32
  public var tm_isdst: Int32
  public var tm_gmtoff: Int
  public var tm_zone: UnsafeMutablePointer<CChar>!
  public init() { _standIn() }
}

/// `time_t time(time_t *)` (_time.h:166)
@discardableResult
public func time(_ result: UnsafeMutablePointer<time_t>!) -> time_t { _standIn() }

/// `struct tm *localtime_r(const time_t * __restrict, struct tm * __restrict)` (_time.h:176)
@discardableResult
public func localtime_r(_ clock: UnsafePointer<time_t>!, _ result: UnsafeMutablePointer<tm>!)
  -> UnsafeMutablePointer<tm>!
{ _standIn() }

/// `size_t strftime(char * __restrict, size_t __maxsize, const char * __restrict, const struct
/// tm * __restrict)` (_time.h:151)
@discardableResult
public func strftime(
  _ buffer: UnsafeMutablePointer<CChar>!, _ size: Int, _ format: UnsafePointer<CChar>!,
  _ time: UnsafePointer<tm>!
) -> Int { _standIn() }

/// `int nanosleep(const struct timespec *__rqtp, struct timespec *__rmtp)` (_time.h:193)
@discardableResult
public func nanosleep(
  _ request: UnsafePointer<timespec>!, _ remaining: UnsafeMutablePointer<timespec>!
) -> Int32 { _standIn() }

/// `typedef enum { _CLOCK_REALTIME = 0, ... _CLOCK_THREAD_CPUTIME_ID = 16 } clockid_t`
/// (_time.h:229): an enum, so a struct with a raw value here, where glibc's is an `int`.
public struct clockid_t: RawRepresentable, Equatable, Hashable, Sendable {
  public var rawValue: UInt32
  public init(_ rawValue: UInt32) { _standIn() }
  public init(rawValue: UInt32) { _standIn() }
}
/// `#define CLOCK_THREAD_CPUTIME_ID _CLOCK_THREAD_CPUTIME_ID` (_time.h:228)
public var CLOCK_THREAD_CPUTIME_ID: clockid_t { _standIn() }

/// `int clock_gettime(clockid_t __clock_id, struct timespec *__tp)` (_time.h:236), macOS 10.12
@discardableResult
public func clock_gettime(_ clock: clockid_t, _ time: UnsafeMutablePointer<timespec>!) -> Int32 {
  _standIn()
}
