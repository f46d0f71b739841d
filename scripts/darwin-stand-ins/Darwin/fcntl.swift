// xnu-11417.101.15 bsd/sys/fcntl.h and sys/file.h, and the `open` / `fcntl` that Swift's Darwin
// overlay declares (swiftlang/swift stdlib/public/Platform/Platform.swift), C's being variadic.

/// `#define O_RDONLY 0x0000` (bsd/sys/fcntl.h:98)
public var O_RDONLY: Int32 { 0x0000 }
/// `#define O_WRONLY 0x0001` (bsd/sys/fcntl.h:99)
public var O_WRONLY: Int32 { 0x0001 }
/// `#define O_RDWR 0x0002` (bsd/sys/fcntl.h:100)
public var O_RDWR: Int32 { 0x0002 }
/// `#define O_NONBLOCK 0x00000004` (bsd/sys/fcntl.h:115)
public var O_NONBLOCK: Int32 { 0x00000004 }
/// `#define O_APPEND 0x00000008` (bsd/sys/fcntl.h:116)
public var O_APPEND: Int32 { 0x00000008 }
/// `#define O_CREAT 0x00000200` (bsd/sys/fcntl.h:127)
public var O_CREAT: Int32 { 0x00000200 }
/// `#define O_TRUNC 0x00000400` (bsd/sys/fcntl.h:128)
public var O_TRUNC: Int32 { 0x00000400 }
/// `#define O_EXCL 0x00000800` (bsd/sys/fcntl.h:129)
public var O_EXCL: Int32 { 0x00000800 }
/// `#define O_NOCTTY 0x00020000` (bsd/sys/fcntl.h:147)
public var O_NOCTTY: Int32 { 0x00020000 }
/// `#define O_CLOEXEC 0x01000000` (bsd/sys/fcntl.h:170)
public var O_CLOEXEC: Int32 { 0x01000000 }
/// `#define F_GETFD 1` (bsd/sys/fcntl.h:279)
public var F_GETFD: Int32 { 1 }
/// `#define F_SETFD 2` (bsd/sys/fcntl.h:280)
public var F_SETFD: Int32 { 2 }
/// `#define F_GETFL 3` (bsd/sys/fcntl.h:281)
public var F_GETFL: Int32 { 3 }
/// `#define F_SETFL 4` (bsd/sys/fcntl.h:282)
public var F_SETFL: Int32 { 4 }
/// `#define FD_CLOEXEC 1` (bsd/sys/fcntl.h:450)
public var FD_CLOEXEC: Int32 { 1 }
/// `#define LOCK_SH 0x01` (bsd/sys/fcntl.h:667)
public var LOCK_SH: Int32 { 0x01 }
/// `#define LOCK_EX 0x02` (bsd/sys/fcntl.h:668)
public var LOCK_EX: Int32 { 0x02 }
/// `#define LOCK_NB 0x04` (bsd/sys/fcntl.h:669)
public var LOCK_NB: Int32 { 0x04 }
/// `#define LOCK_UN 0x08` (bsd/sys/fcntl.h:670)
public var LOCK_UN: Int32 { 0x08 }

/// The overlay's `open(_ path: UnsafePointer<CChar>, _ oflag: Int32) -> Int32`
public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32) -> Int32 { _standIn() }
/// The overlay's `open(_ path: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t) -> Int32`
public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t) -> Int32 {
  _standIn()
}

/// The overlay's `fcntl(_ fd: Int32, _ cmd: Int32) -> Int32`
@discardableResult
public func fcntl(_ fd: Int32, _ cmd: Int32) -> Int32 { _standIn() }
/// The overlay's `fcntl(_ fd: Int32, _ cmd: Int32, _ value: Int32) -> Int32`
@discardableResult
public func fcntl(_ fd: Int32, _ cmd: Int32, _ value: Int32) -> Int32 { _standIn() }
/// The overlay's `fcntl(_ fd: Int32, _ cmd: Int32, _ ptr: UnsafeMutableRawPointer) -> Int32`
@discardableResult
public func fcntl(_ fd: Int32, _ cmd: Int32, _ ptr: UnsafeMutableRawPointer) -> Int32 {
  _standIn()
}

/// `int flock(int, int)` (bsd/sys/fcntl.h:855)
@discardableResult
public func flock(_ descriptor: Int32, _ operation: Int32) -> Int32 { _standIn() }
