// libplatform-375.100.10, include/os/lock.h (inside `OS_ASSUME_NONNULL_BEGIN`), macOS 10.12 /
// iOS 10.0 (`OS_UNFAIR_LOCK_AVAILABILITY`). The lock "relies on the address of the lock value",
// so `Locked` keeps it on the heap.

/// `typedef struct os_unfair_lock_s { uint32_t _os_unfair_lock_opaque; } os_unfair_lock,
/// *os_unfair_lock_t;` (lock.h:87); zero is `OS_UNFAIR_LOCK_INIT`.
public struct os_unfair_lock_s: Sendable {
  public var _os_unfair_lock_opaque: UInt32
  public init() { _standIn() }
  public init(_os_unfair_lock_opaque: UInt32) { _standIn() }
}
public typealias os_unfair_lock = os_unfair_lock_s
public typealias os_unfair_lock_t = UnsafeMutablePointer<os_unfair_lock_s>

/// `void os_unfair_lock_lock(os_unfair_lock_t lock)` (lock.h:115), with
/// `OS_SWIFT_UNAVAILABLE_FROM_ASYNC("Use OSAllocatedUnfairLock.performWhileLocked() for
/// async-safe scoped locking")`
@_unavailableFromAsync(
  message: "Use OSAllocatedUnfairLock.performWhileLocked() for async-safe scoped locking")
public func os_unfair_lock_lock(_ lock: os_unfair_lock_t) { _standIn() }

/// `bool os_unfair_lock_trylock(os_unfair_lock_t lock)` (lock.h:141), `OS_WARN_RESULT` (so its
/// result may not be ignored) and unavailable from async
@_unavailableFromAsync(
  message: "Use OSAllocatedUnfairLock.tryPerformWhileLocked() for async-safe scoped locking")
public func os_unfair_lock_trylock(_ lock: os_unfair_lock_t) -> Bool { _standIn() }

/// `void os_unfair_lock_unlock(os_unfair_lock_t lock)` (lock.h:155), unavailable from async
@_unavailableFromAsync(
  message: "Use OSAllocatedUnfairLock.performWhileLocked() for async-safe scoped locking")
public func os_unfair_lock_unlock(_ lock: os_unfair_lock_t) { _standIn() }
