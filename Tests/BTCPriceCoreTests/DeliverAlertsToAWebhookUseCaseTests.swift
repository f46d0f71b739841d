import BTCPriceCore
import BTCPriceRuntime
import BTCPriceTestSupport
import Testing

@Suite("Deliver alerts to a webhook", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct DeliverAlertsToAWebhookUseCaseTests {
  let clock = SteppedTestClock()

  @Test func everyAlert_isDeliveredInOrder() async {
    let receiver = Receiver()
    let (sut, events) = makeSUT(receiver)
    let running = Task { await sut.run() }

    for alert in ["a", "b", "c"] { sut.enqueue(alert) }
    await waitUntil({ receiver.received.value == ["a", "b", "c"] })

    #expect(events.value == [.delivered, .delivered, .delivered])
    running.cancel()
  }

  @Test func aReceiverThatIsDownThenBack_getsTheAlertsAfterItReturns() async {
    let receiver = Receiver(failures: 3)
    let (sut, events) = makeSUT(receiver)
    let running = Task { await sut.run() }

    sut.enqueue("a")
    sut.enqueue("b")
    // Back-off with the jitter at its top: 1 s, 2 s, 4 s.
    await clock.advance(to: .seconds(1), afterSleeps: 1)
    await clock.advance(to: .seconds(3), afterSleeps: 2)
    #expect(receiver.received.value.isEmpty)
    await clock.advance(to: .seconds(7), afterSleeps: 3)
    await waitUntil({ receiver.received.value == ["a", "b"] })

    #expect(
      receiver.attemptsAt.value == [.zero, .seconds(1), .seconds(3), .seconds(7), .seconds(7)])
    #expect(
      events.value == [
        .attemptFailed, .receiverDown("down"), .attemptFailed, .attemptFailed, .delivered,
        .receiverBack, .delivered,
      ],
      "one warning for the outage, however many retries")
    running.cancel()
  }

  @Test func theBackOff_isJitteredAndCapped() async {
    let receiver = Receiver(failures: 10)
    let (sut, _) = makeSUT(
      receiver, policy: .init(capacity: 8, firstRetry: .seconds(1), longestRetry: .seconds(4)),
      jitter: 0)
    let running = Task { await sut.run() }

    sut.enqueue("a")
    // Half of 1, 2, 4, 4 s.
    for (step, at) in [0.5, 1.5, 3.5, 5.5].enumerated() {
      await clock.advance(to: .milliseconds(Int64(at * 1000)), afterSleeps: step + 1)
    }
    await waitUntil({ receiver.attemptsAt.value.count == 5 })

    #expect(
      receiver.attemptsAt.value == [
        .zero, .milliseconds(500), .milliseconds(1500), .milliseconds(3500),
        .milliseconds(5500),
      ])
    running.cancel()
  }

  @Test func aReceiverThatStaysDown_costsABoundedQueueAndACounter() async {
    let receiver = Receiver(failures: 1000)
    let (sut, events) = makeSUT(
      receiver, policy: .init(capacity: 3, firstRetry: .seconds(1), longestRetry: .seconds(60)))
    let running = Task { await sut.run() }

    for alert in ["a", "b", "c", "d", "e"] { sut.enqueue(alert) }

    #expect(sut.pending == 3)
    #expect(events.value.filter { $0 == .dropped }.count == 2)
    running.cancel()
  }

  @Test func enqueue_neverWaitsForAHangingReceiver() async {
    let receiver = Receiver(hangs: true)
    let (sut, _) = makeSUT(receiver)
    let running = Task { await sut.run() }

    sut.enqueue("a")
    await waitUntil({ receiver.attemptsAt.value.count == 1 })
    for index in 0..<100 { sut.enqueue("\(index)") }

    #expect(sut.pending == 64, "the standard queue holds 64 alerts")
    running.cancel()
  }

  @Test func anAlertQueuedWhileTheQueueIsIdle_isDelivered() async {
    let receiver = Receiver()
    let (sut, _) = makeSUT(receiver)
    let running = Task { await sut.run() }

    sut.enqueue("a")
    await waitUntil({ receiver.received.value == ["a"] && sut.pending == 0 })
    // Lets the delivering task go back to waiting for work.
    for _ in 0..<1000 { await Task.yield() }
    sut.enqueue("b")

    await waitUntil({ receiver.received.value == ["a", "b"] }, "b waits in the queue")
    running.cancel()
  }

  @Test func anAlertDroppedWhileItWasBeingDelivered_takesNoOtherAlertWithIt() async {
    let receiver = Receiver(hangs: true)
    let (sut, events) = makeSUT(
      receiver, policy: .init(capacity: 2, firstRetry: .seconds(1), longestRetry: .seconds(60)))
    let running = Task { await sut.run() }

    sut.enqueue("a")
    await waitUntil({ receiver.attemptsAt.value.count == 1 })
    sut.enqueue("b")
    sut.enqueue("c")
    #expect(events.value == [.dropped], "a, the oldest, left the full queue")
    await clock.advance(to: .seconds(3600), afterSleeps: 1)

    await waitUntil({ receiver.received.value == ["a", "b", "c"] })
    running.cancel()
  }

  @Test func aDeliveryThatSucceeds_startsTheBackOffAgain() async {
    let receiver = Receiver(failingAttempts: [0, 1, 3])
    let (sut, _) = makeSUT(receiver)
    let running = Task { await sut.run() }

    sut.enqueue("a")
    await clock.advance(to: .seconds(1), afterSleeps: 1)
    await clock.advance(to: .seconds(3), afterSleeps: 2)
    await waitUntil({ receiver.received.value == ["a"] })
    sut.enqueue("b")
    await clock.advance(to: .seconds(4), afterSleeps: 3)

    await waitUntil({ receiver.received.value == ["a", "b"] }, "b is retried after 1 s, not 4")
    #expect(
      receiver.attemptsAt.value == [.zero, .seconds(1), .seconds(3), .seconds(3), .seconds(4)])
    running.cancel()
  }

  @Test func theStandardBackOff_doublesUpToAMinute() async {
    let receiver = Receiver(failures: 1000)
    let (sut, _) = makeSUT(receiver)
    let running = Task { await sut.run() }

    sut.enqueue("a")
    let attempts: [Int64] = [1, 3, 7, 15, 31, 63, 123, 183]
    for (step, at) in attempts.enumerated() {
      await clock.advance(to: .seconds(at), afterSleeps: step + 1)
    }
    await waitUntil({ receiver.attemptsAt.value.count == 9 })

    #expect(receiver.attemptsAt.value == [.zero] + attempts.map { .seconds($0) })
    running.cancel()
  }

  @Test(arguments: [(2.0, Duration.seconds(1)), (-1.0, Duration.milliseconds(500))])
  func aJitterOutsideZeroToOne_keepsThePauseWithinHalfAndAllOfTheBackOff(
    jitter: Double, pause: Duration
  ) async {
    let receiver = Receiver(failures: 1)
    let (sut, _) = makeSUT(receiver, jitter: jitter)
    let running = Task { await sut.run() }

    sut.enqueue("a")
    await clock.advance(to: pause, afterSleeps: 1)

    await waitUntil({ receiver.received.value == ["a"] })
    #expect(receiver.attemptsAt.value == [.zero, pause])
    running.cancel()
  }

  // MARK: Helpers

  typealias Policy = AlertWebhookQueue<String>.Policy

  private func makeSUT(
    _ receiver: Receiver, policy: Policy = .standard, jitter: Double = 1
  ) -> (AlertWebhookQueue<String>, Locked<[AlertWebhookQueue<String>.Event]>) {
    let events = Locked<[AlertWebhookQueue<String>.Event]>([])
    let clock = clock
    let sut = AlertWebhookQueue<String>(
      policy: policy, clock: clock, jitter: { jitter },
      send: { try await receiver.receive($0, on: clock) },
      onEvent: { events.append($0) })
    return (sut, events)
  }

  /// A webhook receiver that fails its first `failures` deliveries, or never answers.
  final class Receiver: Sendable {
    struct Down: Error, CustomStringConvertible {
      var description: String { "down" }
    }

    let received = Locked<[String]>([])
    let attemptsAt = Locked<[Duration]>([])
    private let failuresLeft: Locked<Int>
    private let failingAttempts: Set<Int>
    private let hangs: Bool

    /// Fails its first `failures` deliveries and those numbered in `failingAttempts` (from 0).
    init(failures: Int = 0, failingAttempts: Set<Int> = [], hangs: Bool = false) {
      failuresLeft = Locked(failures)
      self.failingAttempts = failingAttempts
      self.hangs = hangs
    }

    func receive(_ alert: String, on clock: SteppedTestClock) async throws {
      let attempt = attemptsAt.withValue { attempts in
        attempts.append(clock.elapsed)
        return attempts.count - 1
      }
      if hangs {
        // The test never advances this far: the delivery hangs until cancelled.
        try await clock.sleep(until: clock.origin.advanced(by: .seconds(3600)))
      }
      let fails = failuresLeft.withValue { left in
        defer { left -= 1 }
        return left > 0
      }
      if fails || failingAttempts.contains(attempt) { throw Down() }
      received.append(alert)
    }
  }
}
