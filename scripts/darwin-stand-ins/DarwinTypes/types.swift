// The integer types, as Darwin's headers define them (sys/_types.h, i386/_types.h and
// arm/_types.h of xnu-11417.101.15, LP64). Where glibc differs, the difference is noted: a
// type that is not the same width or signedness is where code written against glibc breaks.

/// `typedef __int32_t __darwin_pid_t` (bsd/sys/_types.h)
public typealias pid_t = Int32
/// `typedef __uint16_t __darwin_mode_t` (bsd/sys/_types.h); glibc's is a 32-bit `__mode_t`.
public typealias mode_t = UInt16
/// `typedef __int64_t __darwin_off_t` (bsd/sys/_types.h)
public typealias off_t = Int64
/// `typedef long __darwin_ssize_t` (bsd/i386/_types.h, bsd/arm/_types.h)
public typealias ssize_t = Int
/// `typedef __uint32_t __darwin_socklen_t` (bsd/sys/_types.h)
public typealias socklen_t = UInt32
/// `typedef __uint8_t sa_family_t` (bsd/sys/_types/_sa_family_t.h); glibc's is 16 bits.
public typealias sa_family_t = UInt8
/// `typedef __uint16_t in_port_t` (bsd/sys/_types/_in_port_t.h)
public typealias in_port_t = UInt16
/// `typedef __uint32_t in_addr_t` (bsd/sys/_types/_in_addr_t.h)
public typealias in_addr_t = UInt32
/// `typedef long __darwin_time_t` (bsd/i386/_types.h, bsd/arm/_types.h)
public typealias time_t = Int
/// `typedef __int32_t __darwin_suseconds_t` (bsd/sys/_types.h); glibc's is a `long`.
public typealias suseconds_t = Int32
/// `typedef __uint32_t __darwin_useconds_t` (bsd/sys/_types.h)
public typealias useconds_t = UInt32
/// `typedef __int32_t __darwin_dev_t` (bsd/sys/_types.h); glibc's is 64 bits.
public typealias dev_t = Int32
/// `typedef __uint64_t __darwin_ino64_t` (bsd/sys/_types.h)
public typealias ino_t = UInt64
/// `typedef __uint16_t __darwin_nlink_t`... `nlink_t` (bsd/sys/_types/_nlink_t.h)
public typealias nlink_t = UInt16
/// `typedef __uint32_t __darwin_uid_t` (bsd/sys/_types.h)
public typealias uid_t = UInt32
/// `typedef __uint32_t __darwin_gid_t` (bsd/sys/_types.h)
public typealias gid_t = UInt32
/// `typedef __int64_t blkcnt_t` (bsd/sys/_types/_blkcnt_t.h)
public typealias blkcnt_t = Int64
/// `typedef __int32_t blksize_t` (bsd/sys/_types/_blksize_t.h)
public typealias blksize_t = Int32
/// `typedef __uint64_t rlim_t` (bsd/sys/resource.h); glibc's is an `unsigned long`, `UInt`.
public typealias rlim_t = UInt64
/// `typedef unsigned int nfds_t` (bsd/sys/poll.h)
public typealias nfds_t = UInt32
/// `typedef __uint32_t __darwin_sigset_t` (bsd/sys/_types.h): an integer on Darwin, where
/// glibc's `sigset_t` is a struct.
public typealias sigset_t = UInt32
