// The stand-in `Glibc` of the Mac's view (scripts/check-darwin-view): Linux's Foundation and
// SwiftNIO's NIOPosix were built against Glibc and re-export it (`@_exported import Glibc` in
// swift-corelibs-foundation and in swift-nio's Sources/NIOPosix/System.swift), so they load only
// where some module named Glibc is found. This one, first on the view's search path, re-exports
// the Darwin stand-in and nothing else: what those modules make visible is Darwin's C library, as
// Apple's Foundation and NIOPosix (`@_exported import Darwin.C`) do on a Mac, and no glibc-only
// name (`SIGPWR`, `st_mtim`, `__rlimit_resource_t`) resolves. Our own code may not name it: the
// check reports `import Glibc` and `Glibc.x` outside a Linux-only `#if`, as a Mac would.
@_exported import Darwin
