// xnu-11417.101.15 bsd/sys/wait.h.

/// `#define WNOHANG 0x00000001` (bsd/sys/wait.h:121)
public var WNOHANG: Int32 { 0x00000001 }

/// `pid_t waitpid(pid_t, int *, int)` (wait.h:248)
@discardableResult
public func waitpid(_ pid: pid_t, _ status: UnsafeMutablePointer<Int32>!, _ options: Int32)
  -> pid_t
{ _standIn() }
