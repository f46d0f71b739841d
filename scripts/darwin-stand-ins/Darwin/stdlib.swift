// Libc-1725.0.11 include/_stdlib.h, _string.h, _stdio.h (no nullability annotations on these:
// a pointer is implicitly unwrapped); `free` from libmalloc's malloc/_malloc.h
// (`void free(void *)`); `environ` as Swift's Darwin overlay declares it
// (swiftlang/swift stdlib/public/Platform/Platform.swift).

/// `char *getenv(const char *)` (_stdlib.h:178)
public func getenv(_ name: UnsafePointer<CChar>!) -> UnsafeMutablePointer<CChar>! { _standIn() }

/// `char *realpath(const char * __restrict, char * __restrict)` (_stdlib.h:292)
public func realpath(_ path: UnsafePointer<CChar>!, _ resolved: UnsafeMutablePointer<CChar>!)
  -> UnsafeMutablePointer<CChar>!
{ _standIn() }

/// `void free(void *)` (libmalloc, malloc/_malloc.h)
public func free(_ pointer: UnsafeMutableRawPointer!) { _standIn() }

/// `void exit(int) __dead2` (_stdlib.h:176)
public func exit(_ status: Int32) -> Never { _standIn() }

/// `char *strerror(int __errnum)` (_string.h:102)
public func strerror(_ number: Int32) -> UnsafeMutablePointer<CChar>! { _standIn() }

/// `size_t strlen(const char *__s)` (_string.h:108)
public func strlen(_ text: UnsafePointer<CChar>!) -> Int { _standIn() }

/// `int rename(const char *__old, const char *__new)` (_stdio.h:303)
@discardableResult
public func rename(_ old: UnsafePointer<CChar>!, _ new: UnsafePointer<CChar>!) -> Int32 {
  _standIn()
}

/// The overlay's `public var environ: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>`
public var environ: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> { _standIn() }
