// Signals: xnu-11417.101.15 bsd/sys/signal.h (numbers, `sig_t`, `signal`), Libc-1725.0.11
// include/signal.h (`raise`, `kill`, the sigset functions; no nullability annotations, so a
// pointer is implicitly unwrapped), and `SIG_DFL` / `SIG_IGN` from Swift's Darwin overlay
// (swiftlang/swift stdlib/public/Platform/Platform.swift), which C's casts cannot import.
// Darwin numbers differ from Linux's past 15 (SIGCHLD is 20, SIGUSR1 30), and Linux-only
// signals (SIGPWR, SIGSTKFLT) do not exist.

/// `#define SIGHUP 1` (bsd/sys/signal.h:84)
public var SIGHUP: Int32 { 1 }
/// `#define SIGINT 2` (bsd/sys/signal.h:85)
public var SIGINT: Int32 { 2 }
/// `#define SIGQUIT 3` (bsd/sys/signal.h:86)
public var SIGQUIT: Int32 { 3 }
/// `#define SIGKILL 9` (bsd/sys/signal.h:97)
public var SIGKILL: Int32 { 9 }
/// `#define SIGPIPE 13` (bsd/sys/signal.h:101)
public var SIGPIPE: Int32 { 13 }
/// `#define SIGALRM 14` (bsd/sys/signal.h:102)
public var SIGALRM: Int32 { 14 }
/// `#define SIGTERM 15` (bsd/sys/signal.h:103)
public var SIGTERM: Int32 { 15 }
/// `#define SIGSTOP 17` (bsd/sys/signal.h:105)
public var SIGSTOP: Int32 { 17 }
/// `#define SIGTSTP 18` (bsd/sys/signal.h:106)
public var SIGTSTP: Int32 { 18 }
/// `#define SIGCONT 19` (bsd/sys/signal.h:107)
public var SIGCONT: Int32 { 19 }
/// `#define SIGCHLD 20` (bsd/sys/signal.h:108)
public var SIGCHLD: Int32 { 20 }
/// `#define SIGWINCH 28` (bsd/sys/signal.h:119)
public var SIGWINCH: Int32 { 28 }
/// `#define SIGUSR1 30` (bsd/sys/signal.h:122)
public var SIGUSR1: Int32 { 30 }
/// `#define SIGUSR2 31` (bsd/sys/signal.h:123)
public var SIGUSR2: Int32 { 31 }
/// `#define SIG_BLOCK 1` (bsd/sys/signal.h:488)
public var SIG_BLOCK: Int32 { 1 }
/// `#define SIG_UNBLOCK 2` (bsd/sys/signal.h:489)
public var SIG_UNBLOCK: Int32 { 2 }
/// `#define SIG_SETMASK 3` (bsd/sys/signal.h:490)
public var SIG_SETMASK: Int32 { 3 }

/// `typedef void (*sig_t)(int)` (bsd/sys/signal.h:500)
public typealias sig_t = @convention(c) (Int32) -> Void

/// `void (*signal(int, void (*)(int)))(int)` (bsd/sys/signal.h:603)
@discardableResult
public func signal(
  _ signal: Int32, _ handler: (@convention(c) (Int32) -> Void)!
) -> (@convention(c) (Int32) -> Void)! { _standIn() }

/// Swift's Darwin overlay: `public var SIG_DFL: sig_t? { return nil }` (Platform.swift)
public var SIG_DFL: sig_t? { nil }
/// Swift's Darwin overlay: `public var SIG_IGN: sig_t { unsafeBitCast(1, to: sig_t.self) }`
public var SIG_IGN: sig_t { _standIn() }

/// `int raise(int)` (include/signal.h:77)
@discardableResult
public func raise(_ signal: Int32) -> Int32 { _standIn() }

/// `int kill(pid_t, int)` (include/signal.h:86)
@discardableResult
public func kill(_ pid: pid_t, _ signal: Int32) -> Int32 { _standIn() }

/// `int sigaddset(sigset_t *, int)` (include/signal.h:113)
@discardableResult
public func sigaddset(_ set: UnsafeMutablePointer<sigset_t>!, _ signal: Int32) -> Int32 {
  _standIn()
}

/// `int sigemptyset(sigset_t *)` (include/signal.h:124)
@discardableResult
public func sigemptyset(_ set: UnsafeMutablePointer<sigset_t>!) -> Int32 { _standIn() }

/// `int sigfillset(sigset_t *)` (include/signal.h:125)
@discardableResult
public func sigfillset(_ set: UnsafeMutablePointer<sigset_t>!) -> Int32 { _standIn() }

/// `int sigismember(const sigset_t *, int)` (include/signal.h:129)
@discardableResult
public func sigismember(_ set: UnsafePointer<sigset_t>!, _ signal: Int32) -> Int32 { _standIn() }
