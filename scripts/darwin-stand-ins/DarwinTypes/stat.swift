// xnu-11417.101.15 bsd/sys/stat.h: the 64-bit-inode `struct stat` (`__DARWIN_STRUCT_STAT64`,
// with `_DARWIN_C_SOURCE`'s `timespec` times). In this module of its own, which `Darwin`
// re-exports, because the function `stat` shares its name (Darwin/stat.swift).

/// `struct stat __DARWIN_STRUCT_STAT64` (stat.h:190, the fields at stat.h:166 and the times at
/// stat.h:136)
public struct stat: Sendable {
  public var st_dev: dev_t
  public var st_mode: mode_t
  public var st_nlink: nlink_t
  public var st_ino: ino_t
  public var st_uid: uid_t
  public var st_gid: gid_t
  public var st_rdev: dev_t
  public var st_atimespec: timespec
  public var st_mtimespec: timespec
  public var st_ctimespec: timespec
  public var st_birthtimespec: timespec
  public var st_size: off_t
  public var st_blocks: blkcnt_t
  public var st_blksize: blksize_t
  public var st_flags: UInt32
  public var st_gen: UInt32
  public var st_lspare: Int32
  public var st_qspare: (Int64, Int64)
  public init() { fatalError() }
}

