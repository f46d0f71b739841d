import BTCPriceCore
import BTCPriceTestSupport
import Foundation
import Testing

/// The cache's lock guards bookkeeping only: its write (with the `fsync`) and its warning happen
/// outside it, so the way out (a signal's `flush()` on another thread) never waits on a write
/// that a slow disk holds, nor on a warning stuck behind a blocked stderr.
@Suite("Never block the way out on the cache", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct NeverBlockTheWayOutUseCaseTests {
  @Test func flush_returnsAtOnceWhileAnotherThreadsWriteIsStuck() {
    let store = StuckStore()
    let sut = PriceCache(store: store, clock: SteppedTestClock())
    let writer = Thread { sut.record(quote("68901.23")) }
    writer.start()
    #expect(store.saveStarted.wait(timeout: .now() + 5) == .success)

    #expect(returnsWithin(seconds: 2) { sut.flush() }, "flush waited on the stuck write")
    #expect(returnsWithin(seconds: 2) { sut.record(nil) }, "the lock is held by a write")

    store.release.signal()
  }

  @Test func flush_returnsAtOnceWhileAWarningIsStuckBehindABlockedStderr() {
    let warningStarted = DispatchSemaphore(value: 0)
    let stderrUnblocked = DispatchSemaphore(value: 0)
    let sut = PriceCache(
      store: PriceStoreSpy(saveError: "disk full"), clock: SteppedTestClock(),
      warn: { _ in
        // The warning goes to a terminal whose reader has stopped reading.
        warningStarted.signal()
        stderrUnblocked.wait()
      })
    Thread { sut.record(quote("68901.23")) }.start()
    #expect(warningStarted.wait(timeout: .now() + 5) == .success)

    #expect(returnsWithin(seconds: 2) { sut.flush() }, "flush waited on the stuck warning")

    stderrUnblocked.signal()
    stderrUnblocked.signal()
  }
}

/// A store whose save blocks until released, like a disk that stalls in `fsync`.
private final class StuckStore: PriceStore, @unchecked Sendable {
  let saveStarted = DispatchSemaphore(value: 0)
  let release = DispatchSemaphore(value: 0)

  func load() throws -> PriceQuote? { nil }

  func save(_ quote: PriceQuote) throws {
    saveStarted.signal()
    release.wait()
  }
}

/// Runs `work` on a thread and says whether it returned within the bound. A hang becomes a failed
/// expectation instead of a stuck suite.
private func returnsWithin(seconds: Int, _ work: @escaping @Sendable () -> Void) -> Bool {
  let done = DispatchSemaphore(value: 0)
  Thread {
    work()
    done.signal()
  }.start()
  return done.wait(timeout: .now() + .seconds(seconds)) == .success
}
