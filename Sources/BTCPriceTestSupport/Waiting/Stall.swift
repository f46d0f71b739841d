import BTCPriceCore
import BTCPriceRuntime
import Dispatch

/// What stalls until a test releases it, as a reader that stopped reading or a disk that sleeps:
/// ``pass()`` blocks its thread until ``release()``, and says it started to.
public final class Stall: Sendable {
  private let started = DispatchSemaphore(value: 0)
  private let released = DispatchSemaphore(value: 0)
  private let stalled = Locked(true)

  public init() {}

  /// Blocks until ``release()``; returns at once after it.
  public func pass() {
    guard stalled.value else { return }
    started.signal()
    released.wait()
  }

  /// Whether a ``pass()`` started to block within `seconds`.
  public func hasStalled(within seconds: Int = 5) -> Bool {
    started.wait(timeout: .now() + .seconds(seconds)) == .success
  }

  public func release() {
    stalled.withValue { $0 = false }
    released.signal()
  }
}
