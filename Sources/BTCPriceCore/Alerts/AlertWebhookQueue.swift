import BTCPriceRuntime

/// Delivers alerts to a webhook (`serve --alert-webhook`, still to be wired) from a bounded
/// queue, one at a time and in order, retrying a failed delivery with jittered exponential
/// back-off on the injected clock.
///
/// ``enqueue(_:)`` never waits: the tick hands an alert over and goes on. While the receiver is
/// down the queue holds at most ``Policy/capacity`` alerts and drops the oldest beyond that, so a
/// receiver that stays down costs a bounded memory and a counter (``Event/dropped``), never the
/// rhythm. The receiver going down and coming back are reported once each, for one warning.
public final class AlertWebhookQueue<Item: Sendable>: Sendable {
  public struct Policy: Sendable {
    /// Alerts held while the receiver is down: more than a day of crossings of a few rules.
    public var capacity: Int
    /// The pause after the first failure; it doubles after each next one.
    public var firstRetry: Duration
    /// The longest pause: a receiver that is back is found within it.
    public var longestRetry: Duration

    public init(capacity: Int, firstRetry: Duration, longestRetry: Duration) {
      self.capacity = capacity
      self.firstRetry = firstRetry
      self.longestRetry = longestRetry
    }

    public static var standard: Policy {
      Policy(capacity: 64, firstRetry: .seconds(1), longestRetry: .seconds(60))
    }
  }

  public enum Event: Equatable, Sendable {
    case delivered
    /// The queue was full: the oldest alert was dropped.
    case dropped
    /// A delivery failed; it is retried after a pause.
    case attemptFailed
    /// A delivery failed after the last one succeeded (reported once until one succeeds).
    case receiverDown(String)
    /// A delivery succeeded after failures.
    case receiverBack
  }

  private struct State {
    /// Numbered, so that a delivery removes the alert it sent even if an overflow dropped it
    /// meanwhile.
    var items: [(number: UInt64, item: Item)] = []
    var next: UInt64 = 0
    var failing = false
  }

  private let policy: Policy
  private let clock: ElapsedClock
  private let jitter: @Sendable () -> Double
  private let send: @Sendable (Item) async throws -> Void
  private let onEvent: @Sendable (Event) -> Void
  private let state = Locked(State())
  private let wake: AsyncStream<Void>.Continuation
  private let wakes: AsyncStream<Void>

  /// - Parameters:
  ///   - jitter: a number in 0...1, drawn at random by the caller (`AlertDeliveries`); each pause
  ///     is between half and all of the back-off, so that restarted servers do not retry in step.
  ///   - send: delivers one alert, or throws why it could not.
  public init(
    policy: Policy = .standard, clock: any Clock<Duration>,
    jitter: @escaping @Sendable () -> Double,
    send: @escaping @Sendable (Item) async throws -> Void,
    onEvent: @escaping @Sendable (Event) -> Void = { _ in }
  ) {
    self.policy = policy
    self.clock = ElapsedClock(clock)
    self.jitter = jitter
    self.send = send
    self.onEvent = onEvent
    (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
  }

  /// Queues `item` and returns at once; drops the oldest alert when the queue is full.
  public func enqueue(_ item: Item) {
    let dropped = state.withValue { state in
      state.items.append((state.next, item))
      state.next += 1
      guard state.items.count > policy.capacity else { return false }
      state.items.removeFirst()
      return true
    }
    if dropped { onEvent(.dropped) }
    wake.yield()
  }

  /// How many alerts wait for delivery.
  public var pending: Int { state.value.items.count }

  /// Delivers until cancelled.
  public func run() async {
    var backOff = policy.firstRetry
    var wakeUps = wakes.makeAsyncIterator()
    while !Task.isCancelled {
      guard let (number, item) = state.value.items.first else {
        guard await wakeUps.next() != nil else { return }
        continue
      }
      do {
        try await send(item)
        let recovered = state.withValue { state in
          if state.items.first?.number == number { state.items.removeFirst() }
          defer { state.failing = false }
          return state.failing
        }
        backOff = policy.firstRetry
        onEvent(.delivered)
        if recovered { onEvent(.receiverBack) }
      } catch {
        if Task.isCancelled { return }
        let first = state.withValue { state in
          defer { state.failing = true }
          return !state.failing
        }
        onEvent(.attemptFailed)
        if first { onEvent(.receiverDown("\(error)")) }
        let pause = backOff / 2 + backOff / 2 * min(max(jitter(), 0), 1)
        backOff = min(backOff * 2, policy.longestRetry)
        do {
          try await clock.sleep(until: clock.now.advanced(by: pause))
        } catch {
          return
        }
      }
    }
  }
}
