// The Mac's view of this package's own C target, Sources/CBTCPriceRuntime/include/
// CBTCPriceRuntime.h, as Swift imports that header on Darwin: a C module cannot be viewed here
// (Clang would read glibc's <sys/types.h> and re-export it, `sigset_t` included), so its
// declarations are repeated, and the check fails when the header declares a `btc_` function this
// file lacks. `ssize_t` and `size_t` import as `Int`.
@_exported import _DarwinTypes

/// `int btc_signal_forward(int signal, int write_end)`
public func btc_signal_forward(_ signal: Int32, _ writeEnd: Int32) -> Int32 {
  fatalError("a stand-in of the Mac's view; never run")
}

/// `void *_Nullable *_Nullable btc_enqueue_global_hook_address(void)`
public func btc_enqueue_global_hook_address() -> UnsafeMutablePointer<UnsafeMutableRawPointer?>? {
  fatalError("a stand-in of the Mac's view; never run")
}

/// `ssize_t btc_write_without_waiting(int descriptor, const void *_Nonnull bytes, size_t count)`
public func btc_write_without_waiting(
  _ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int
) -> Int {
  fatalError("a stand-in of the Mac's view; never run")
}
