import BTCPriceCore
import BTCPriceRuntime
import BTCPriceTestSupport
import Foundation

/// What a loader stub saw, in order, with times measured from the clock's start.
enum LoaderEvent: Equatable, Sendable {
  case started(at: Duration)
  case cancelled(at: Duration)
  case finished(at: Duration)
}

/// A loader that answers at a fixed instant of the test clock (or at once), then delivers `result`.
///
/// Answer times are absolute, not "delay after the call": if the test clock has already passed
/// that instant, the stub answers at once instead of waiting for an advance that never comes.
struct LoaderStub: PriceLoader {
  let clock: SteppedTestClock
  let answersAt: Duration?
  let result: Result<PriceQuote, PriceSourceError>
  /// What it throws when cancelled while it waits: nil, the cancellation itself; a source's
  /// error, as a real transport that ends its request with an error of its own.
  let whenCancelled: PriceSourceError?
  let events = Locked<[LoaderEvent]>([])

  init(
    clock: SteppedTestClock, answersAt: Duration? = nil,
    result: Result<PriceQuote, PriceSourceError>, whenCancelled: PriceSourceError? = nil
  ) {
    self.clock = clock
    self.answersAt = answersAt
    self.result = result
    self.whenCancelled = whenCancelled
  }

  var callCount: Int {
    events.value.filter { if case .started = $0 { true } else { false } }.count
  }

  func load() async throws -> PriceQuote {
    events.append(.started(at: elapsed))
    if let answersAt {
      do {
        try await clock.sleep(until: clock.origin.advanced(by: answersAt))
      } catch {
        events.append(.cancelled(at: elapsed))
        throw whenCancelled ?? error
      }
    }
    events.append(.finished(at: elapsed))
    return try result.get()
  }

  private var elapsed: Duration { clock.elapsed }
}

/// The feed tests' store: TestSupport's, which keeps the store contract.
typealias PriceStoreSpy = InMemoryPriceStore
