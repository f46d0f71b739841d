// Limits and usage: xnu-11417.101.15 bsd/sys/resource.h, bsd/sys/syslimits.h, bsd/sys/sysctl.h
// (no nullability annotations: a pointer is implicitly unwrapped). `getrlimit` takes an `int`
// here, glibc's an `__rlimit_resource_t`; `rlim_t` is a `UInt64` here, an `unsigned long` there.

/// `#define RLIMIT_NOFILE 8` (bsd/sys/resource.h:515)
public var RLIMIT_NOFILE: Int32 { 8 }
/// `#define RUSAGE_INFO_V4 4` (bsd/sys/resource.h:196)
public var RUSAGE_INFO_V4: Int32 { 4 }
/// `#define OPEN_MAX 10240` (bsd/sys/syslimits.h:108)
public var OPEN_MAX: Int32 { 10240 }
/// `#define RLIM_INFINITY (((__uint64_t)1 << 63) - 1)` (resource.h:496)
public var RLIM_INFINITY: rlim_t { 0x7FFF_FFFF_FFFF_FFFF }

/// `struct rlimit { rlim_t rlim_cur; rlim_t rlim_max; }` (resource.h:525)
public struct rlimit: Sendable {
  public var rlim_cur: rlim_t
  public var rlim_max: rlim_t
  public init() { _standIn() }
  public init(rlim_cur: rlim_t, rlim_max: rlim_t) { _standIn() }
}

/// `int getrlimit(int, struct rlimit *)` (resource.h:637)
@discardableResult
public func getrlimit(_ resource: Int32, _ limit: UnsafeMutablePointer<rlimit>!) -> Int32 {
  _standIn()
}

/// `int setrlimit(int, const struct rlimit *)` (resource.h:643)
@discardableResult
public func setrlimit(_ resource: Int32, _ limit: UnsafePointer<rlimit>!) -> Int32 { _standIn() }

/// `typedef void *rusage_info_t` (resource.h:206)
public typealias rusage_info_t = UnsafeMutableRawPointer

/// `int sysctlbyname(const char *, void *oldp, size_t *oldlenp, void *newp, size_t newlen)`
/// (sysctl.h:1449)
@discardableResult
public func sysctlbyname(
  _ name: UnsafePointer<CChar>!, _ old: UnsafeMutableRawPointer!,
  _ oldLength: UnsafeMutablePointer<Int>!, _ new: UnsafeMutableRawPointer!, _ newLength: Int
) -> Int32 { _standIn() }

/// `struct rusage_info_v4` (resource.h:295)
public struct rusage_info_v4: Sendable {
  public var ri_uuid: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)
  public var ri_user_time: UInt64
  public var ri_system_time: UInt64
  public var ri_pkg_idle_wkups: UInt64
  public var ri_interrupt_wkups: UInt64
  public var ri_pageins: UInt64
  public var ri_wired_size: UInt64
  public var ri_resident_size: UInt64
  public var ri_phys_footprint: UInt64
  public var ri_proc_start_abstime: UInt64
  public var ri_proc_exit_abstime: UInt64
  public var ri_child_user_time: UInt64
  public var ri_child_system_time: UInt64
  public var ri_child_pkg_idle_wkups: UInt64
  public var ri_child_interrupt_wkups: UInt64
  public var ri_child_pageins: UInt64
  public var ri_child_elapsed_abstime: UInt64
  public var ri_diskio_bytesread: UInt64
  public var ri_diskio_byteswritten: UInt64
  public var ri_cpu_time_qos_default: UInt64
  public var ri_cpu_time_qos_maintenance: UInt64
  public var ri_cpu_time_qos_background: UInt64
  public var ri_cpu_time_qos_utility: UInt64
  public var ri_cpu_time_qos_legacy: UInt64
  public var ri_cpu_time_qos_user_initiated: UInt64
  public var ri_cpu_time_qos_user_interactive: UInt64
  public var ri_billed_system_time: UInt64
  public var ri_serviced_system_time: UInt64
  public var ri_logical_writes: UInt64
  public var ri_lifetime_max_phys_footprint: UInt64
  public var ri_instructions: UInt64
  public var ri_cycles: UInt64
  public var ri_billed_energy: UInt64
  public var ri_serviced_energy: UInt64
  public var ri_interval_max_phys_footprint: UInt64
  public var ri_runnable_time: UInt64
  public init() { _standIn() }
}
