// xnu-11417.101.15 bsd/sys/stat.h (the 64-bit-inode `struct stat`, `__DARWIN_STRUCT_STAT64`
// with `_DARWIN_C_SOURCE`'s `timespec` times) and the `S_IF*` masks as Swift's Darwin overlay
// declares them (`mode_t`, swiftlang/swift stdlib/public/Platform/Platform.swift).
// The modification time is `st_mtimespec` here, where glibc has `st_mtim`.

/// `struct stat` itself is in `_DarwinTypes` (DarwinTypes/stat.swift), which this module
/// re-exports: Swift cannot declare a type and a function of one name in one module, as the
/// Clang importer does.

/// `int stat(const char *, struct stat *)` (stat.h:567)
@discardableResult
public func stat(_ path: UnsafePointer<CChar>!, _ status: UnsafeMutablePointer<stat>!) -> Int32 {
  _standIn()
}

/// `int lstat(const char *, struct stat *)` (stat.h:564)
@discardableResult
public func lstat(_ path: UnsafePointer<CChar>!, _ status: UnsafeMutablePointer<stat>!) -> Int32 {
  _standIn()
}

/// `int fstat(int, struct stat *)` (stat.h:563)
@discardableResult
public func fstat(_ descriptor: Int32, _ status: UnsafeMutablePointer<stat>!) -> Int32 {
  _standIn()
}

/// `int mkfifo(const char *, mode_t)` (stat.h:566)
@discardableResult
public func mkfifo(_ path: UnsafePointer<CChar>!, _ mode: mode_t) -> Int32 { _standIn() }

/// `int chmod(const char *, mode_t)` (stat.h:561)
@discardableResult
public func chmod(_ path: UnsafePointer<CChar>!, _ mode: mode_t) -> Int32 { _standIn() }

/// The overlay's `public var S_IFMT: mode_t { return mode_t(0o170000) }`, and the others
public var S_IFMT: mode_t { 0o170000 }
public var S_IFIFO: mode_t { 0o010000 }
public var S_IFDIR: mode_t { 0o040000 }
public var S_IFREG: mode_t { 0o100000 }
public var S_IFLNK: mode_t { 0o120000 }
public var S_IFSOCK: mode_t { 0o140000 }
