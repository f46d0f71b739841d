// xnu-11417.101.15 bsd/sys/poll.h.

/// `#define POLLIN 0x0001` (bsd/sys/poll.h:68)
public var POLLIN: Int32 { 0x0001 }
/// `#define POLLOUT 0x0004` (bsd/sys/poll.h:70)
public var POLLOUT: Int32 { 0x0004 }
/// `#define POLLERR 0x0008` (bsd/sys/poll.h:89)
public var POLLERR: Int32 { 0x0008 }
/// `#define POLLHUP 0x0010` (bsd/sys/poll.h:90)
public var POLLHUP: Int32 { 0x0010 }

/// `struct pollfd { int fd; short events; short revents; }` (poll.h:96)
public struct pollfd: Sendable {
  public var fd: Int32
  public var events: Int16
  public var revents: Int16
  public init() { _standIn() }
  public init(fd: Int32, events: Int16, revents: Int16) { _standIn() }
}

/// `extern int poll(struct pollfd *, nfds_t, int)` (poll.h:114)
@discardableResult
public func poll(_ descriptors: UnsafeMutablePointer<pollfd>!, _ count: nfds_t, _ timeout: Int32)
  -> Int32
{ _standIn() }
