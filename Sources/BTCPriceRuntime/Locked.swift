#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A value behind a lock: the one lock box of the targets the iPhone app links, which may not
/// depend on SwiftNIO (where NIO is linked anyway, use its `NIOLockedValueBox`).
///
/// Hold the lock only for quick, non-blocking work: never across a write to a terminal or a
/// pipe, which a stalled reader can block for ever.
package final class Locked<Value: Sendable>: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<Mutex>.allocate(capacity: 1)
  private var stored: Value

  package init(_ value: Value) {
    stored = value
    #if canImport(Darwin)
      mutex.initialize(to: os_unfair_lock())
    #else
      mutex.initialize(to: pthread_mutex_t())
      pthread_mutex_init(mutex, nil)
    #endif
  }

  deinit {
    #if !canImport(Darwin)
      pthread_mutex_destroy(mutex)
    #endif
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// A copy of the value.
  package var value: Value {
    withValue { $0 }
  }

  package func withValue<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock()
    defer { unlock() }
    return try body(&stored)
  }

  /// Runs `body` only if the lock is free right now; nil when another thread holds it.
  package func withValueIfAvailable<Result>(_ body: (inout Value) throws -> Result) rethrows
    -> Result?
  {
    #if canImport(Darwin)
      guard os_unfair_lock_trylock(mutex) else { return nil }
    #else
      guard pthread_mutex_trylock(mutex) == 0 else { return nil }
    #endif
    defer { unlock() }
    return try body(&stored)
  }

  private func lock() {
    #if canImport(Darwin)
      os_unfair_lock_lock(mutex)
    #else
      pthread_mutex_lock(mutex)
    #endif
  }

  private func unlock() {
    #if canImport(Darwin)
      os_unfair_lock_unlock(mutex)
    #else
      pthread_mutex_unlock(mutex)
    #endif
  }

  #if canImport(Darwin)
    private typealias Mutex = os_unfair_lock
  #else
    private typealias Mutex = pthread_mutex_t
  #endif
}

extension Locked {
  /// Appends to an array value.
  package func append<Element>(_ element: Element) where Value == [Element] {
    withValue { $0.append(element) }
  }
}
