// The stand-in `Darwin` of the Mac's view (scripts/check-darwin-view): what this package calls in
// Darwin's C library, and nothing else, each declaration as Swift's Clang importer imports the
// header it cites (or as Swift's own Darwin overlay declares it, swiftlang/swift
// stdlib/public/Platform/, where the C declaration does not import: variadic `open`, `fcntl` and
// `ioctl`, `SIG_DFL`, `errno`, `S_IF*`, `TIOCGWINSZ`, `environ`). A new Darwin call fails the
// check until its declaration is added here, read from the header.
//
// Headers read (apple-oss-distributions): xnu-11417.101.15 (bsd/sys, bsd/netinet,
// libsyscall/wrappers/libproc), Libc-1725.0.11 (include), libpthread-539 (include),
// libplatform-375.100.10 (include/os/lock.h); the arm64/x86_64 sizes (LP64).
//
// How the importer reads them, which these declarations follow:
// - a pointer in a header without nullability annotations imports as an implicitly unwrapped
//   optional (`UnsafeMutablePointer<T>!`); inside `assume_nonnull` (pthread.h, os/lock.h) as a
//   non-optional, and `_Nullable` as an optional;
// - a struct imports with a zero `init()` and a memberwise one; it is Sendable when every field
//   is (pointers are not: `DIR` is not, `pthread_t` is not);
// - a C array field imports as a tuple; an integer macro as a `var` of `Int32` (`UInt32` when it
//   does not fit);
// - a function's result may be ignored without a warning (`@discardableResult` here);
// - `__swift_attr__("@_unavailableFromAsync")` (pthread.h's and os/lock.h's
//   `*_SWIFT_UNAVAILABLE_FROM_ASYNC`) is kept: those calls are errors in async code on a Mac.
//
// Bodies never run (only the signatures are read): each is `_standIn()`.

@_exported import _DarwinTypes

@usableFromInline
func _standIn() -> Never { fatalError("a stand-in of the Mac's view; never run") }
