import BTCPriceCore
import BTCPriceRuntime
import BTCPriceTestSupport
import Foundation
import Testing

/// `Locked.withValueIfAvailable`: the way out (TerminalSession's bounded wait) takes a free lock
/// at its first try and leaves it free; a lock another thread holds gives nil at once.
@Suite("Try the lock", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct TryTheLockUseCaseTests {
  @Test func aFreeLock_isTakenAtTheFirstTry_andLeftFree() {
    let sut = Locked(1)

    let first = sut.withValueIfAvailable { value -> Int in
      value += 1
      return value
    }
    let second = sut.withValueIfAvailable { $0 }

    #expect(first == 2)
    #expect(second == 2, "the first try left the lock held")
  }

  @Test func aLockAnotherThreadHolds_givesNilAtOnce_andIsTakenOnceReleased() {
    let sut = Locked(1)
    let held = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    Thread {
      sut.withValue { _ in
        held.signal()
        release.wait()
      }
      done.signal()
    }.start()
    #expect(held.wait(timeout: .now() + 5) == .success)

    #expect(sut.withValueIfAvailable { $0 } == nil)

    release.signal()
    #expect(done.wait(timeout: .now() + 5) == .success)
    #expect(sut.withValueIfAvailable { $0 } == 1)
  }
}
