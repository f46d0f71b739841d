// xnu-11417.101.15 libsyscall/wrappers/libproc/libproc.h: macOS only (the iPhone's SDK has no
// libproc.h), so the iPhone's view leaves it out (`DARWIN_VIEW_IOS`).
#if !DARWIN_VIEW_IOS
  /// `int proc_pid_rusage(int pid, int flavor, rusage_info_t *buffer)` (libproc.h:111),
  /// `__OSX_AVAILABLE_STARTING(__MAC_10_9, __IPHONE_7_0)`
  @discardableResult
  public func proc_pid_rusage(
    _ pid: Int32, _ flavor: Int32, _ buffer: UnsafeMutablePointer<rusage_info_t?>!
  ) -> Int32 { _standIn() }
#endif
