// Libc-1725.0.11 include/unistd.h (no nullability annotations: a pointer is implicitly
// unwrapped), and xnu-11417.101.15 bsd/sys/unistd.h.

/// `#define STDIN_FILENO 0` (include/unistd.h:98)
public var STDIN_FILENO: Int32 { 0 }
/// `#define STDOUT_FILENO 1` (include/unistd.h:99)
public var STDOUT_FILENO: Int32 { 1 }
/// `#define STDERR_FILENO 2` (include/unistd.h:100)
public var STDERR_FILENO: Int32 { 2 }

/// `int close(int)` (unistd.h:456)
@discardableResult
public func close(_ descriptor: Int32) -> Int32 { _standIn() }

/// `ssize_t read(int, void *, size_t __nbyte)` (unistd.h:507)
@discardableResult
public func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer!, _ count: Int) -> Int {
  _standIn()
}

/// `ssize_t write(int __fd, const void * __buf, size_t __nbyte)` (unistd.h:556)
@discardableResult
public func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer!, _ count: Int) -> Int {
  _standIn()
}

/// `int pipe(int [2])` (unistd.h:502)
@discardableResult
public func pipe(_ descriptors: UnsafeMutablePointer<Int32>!) -> Int32 { _standIn() }

/// `int isatty(int)` (unistd.h:487)
@discardableResult
public func isatty(_ descriptor: Int32) -> Int32 { _standIn() }

/// `int unlink(const char *)` (unistd.h:551)
@discardableResult
public func unlink(_ path: UnsafePointer<CChar>!) -> Int32 { _standIn() }

/// `int fsync(int)` (unistd.h:775)
@discardableResult
public func fsync(_ descriptor: Int32) -> Int32 { _standIn() }

/// `void _exit(int) __dead2` (unistd.h:446)
public func _exit(_ status: Int32) -> Never { _standIn() }

/// `pid_t getpid(void)` (unistd.h:484)
public func getpid() -> pid_t { _standIn() }

/// `int usleep(useconds_t)` (unistd.h:759)
@discardableResult
public func usleep(_ microseconds: useconds_t) -> Int32 { _standIn() }
