import BTCPriceCore
import BTCPriceRuntime
import BTCPriceTestSupport
import Testing

@Suite("Fixed-rate ticker", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct FixedRateTickerTests {
  let clock = SteppedTestClock()

  @Test(arguments: [
    (Duration.seconds(1), Duration.milliseconds(100)), (.milliseconds(500), .milliseconds(50)),
    (.milliseconds(100), .milliseconds(10)), (.seconds(5), .milliseconds(100)),
  ])
  func lateStartTolerance_isATenthOfTheIntervalAndAtMost100ms(
    interval: Duration, tolerance: Duration
  ) {
    // Timer jitter stays below it, a suspension far above it: a larger one would let a stopped
    // process burst to catch up, a smaller one would re-plan the grid on ordinary jitter.
    #expect(PriceTicker(interval: interval, clock: clock).lateStartTolerance == tolerance)
  }

  @Test func run_startsTickNAtStartPlusNIntervalsWhenEachTickTakes300ms() async throws {
    let starts = Locked<[Duration]>([])
    let budgets = Locked<[Duration]>([])
    let sut = PriceTicker(interval: .seconds(1), clock: clock)

    let running = Task { [clock] in
      try await sut.run(count: 8) { slot, budget in
        starts.append(clock.elapsed)
        budgets.append(budget)
        try? await clock.sleep(
          until: clock.origin.advanced(by: .seconds(slot) + .milliseconds(300)))
      }
    }
    // Sleeps alternate: the tick's work (odd), then the ticker waiting for the next slot (even).
    for tick in 0..<8 {
      await clock.advance(to: .seconds(tick) + .milliseconds(300), afterSleeps: 2 * tick + 1)
      if tick < 7 { await clock.advance(to: .seconds(tick + 1), afterSleeps: 2 * tick + 2) }
    }
    try await running.value

    #expect(starts.value == (0..<8).map { Duration.seconds($0) })
    #expect(budgets.value == Array(repeating: .seconds(1), count: 8))
  }

  @Test func run_supportsFractionalIntervals() async throws {
    let starts = Locked<[Duration]>([])
    let sut = PriceTicker(interval: .milliseconds(250), clock: clock)

    let running = Task { [clock] in
      try await sut.run(count: 4) { _, _ in starts.append(clock.elapsed) }
    }
    for tick in 1..<4 {
      await clock.advance(to: .milliseconds(250 * tick), afterSleeps: tick)
    }
    try await running.value

    #expect(starts.value == [.zero, .milliseconds(250), .milliseconds(500), .milliseconds(750)])
  }

  @Test func run_aTickThatRanLong_isFollowedAtOnceByOneWithAFullIntervalOnANewGrid() async throws {
    let spans = Locked<[(slot: Int, start: Duration, budget: Duration, end: Duration)]>([])
    let ends: [Duration] = [.milliseconds(2500), .seconds(5), .milliseconds(5300)]
    let sut = PriceTicker(interval: .seconds(1), clock: clock)

    let running = Task { [clock] in
      try await sut.run(count: 4) { slot, budget in
        let start = clock.elapsed
        if spans.value.count < ends.count {
          try? await clock.sleep(until: clock.origin.advanced(by: ends[spans.value.count]))
        }
        spans.append((slot, start, budget, clock.elapsed))
      }
    }
    // The first two ticks overrun into later slots, so the ticker starts the next one at once;
    // the third is short, and the fourth waits for its slot on the re-planned grid.
    for (index, end) in ends.enumerated() {
      await clock.advance(to: end, afterSleeps: index + 1)
    }
    await clock.advance(to: .seconds(6), afterSleeps: 4)
    try await running.value

    let recorded = spans.value
    #expect(recorded.map(\.slot) == [0, 2, 4, 5])
    #expect(recorded.map(\.start) == [.zero, .milliseconds(2500), .seconds(5), .seconds(6)])
    #expect(recorded.map(\.budget) == Array(repeating: .seconds(1), count: 4))
    for (previous, next) in zip(recorded, recorded.dropFirst()) {
      #expect(next.start >= previous.end)
    }
  }

  /// Ctrl-Z then `fg` ten seconds later, or a laptop that slept: the sleep for slot 3 returns at
  /// 10.3 s. That tick gets a whole second, the slots missed meanwhile are not run, and the grid
  /// goes on from 10.3 s.
  @Test func run_aTickWakingLongAfterItsSlot_getsAFullBudgetAndNoBurstFollows() async throws {
    let ticks = Locked<[(start: Duration, budget: Duration)]>([])
    let sut = PriceTicker(interval: .seconds(1), clock: clock)

    let running = Task { [clock] in
      try await sut.run(count: 6) { _, budget in ticks.append((clock.elapsed, budget)) }
    }
    clock.suspend(from: .milliseconds(2500), until: .milliseconds(10_300))
    await clock.advance(to: .seconds(1), afterSleeps: 1)
    await clock.advance(to: .seconds(2), afterSleeps: 2)
    await clock.advance(to: .milliseconds(10_300), afterSleeps: 3)
    await clock.advance(to: .milliseconds(11_300), afterSleeps: 4)
    await clock.advance(to: .milliseconds(12_300), afterSleeps: 5)
    try await running.value

    #expect(
      ticks.value.map(\.start) == [
        .zero, .seconds(1), .seconds(2), .milliseconds(10_300), .milliseconds(11_300),
        .milliseconds(12_300),
      ])
    #expect(ticks.value.map(\.budget) == Array(repeating: .seconds(1), count: 6))
  }

  @Test func run_aTickALittleLate_keepsTheGridAndWhatIsLeftOfItsSlot() async throws {
    let ticks = Locked<[(start: Duration, budget: Duration)]>([])
    let sut = PriceTicker(interval: .seconds(1), clock: clock)

    clock.suspend(from: .milliseconds(500), until: .milliseconds(1050))
    let running = Task { [clock] in
      try await sut.run(count: 3) { _, budget in ticks.append((clock.elapsed, budget)) }
    }
    await clock.advance(to: .milliseconds(1050), afterSleeps: 1)
    await clock.advance(to: .seconds(2), afterSleeps: 2)
    try await running.value

    #expect(ticks.value.map(\.start) == [.zero, .milliseconds(1050), .seconds(2)])
    #expect(ticks.value.map(\.budget) == [.seconds(1), .milliseconds(950), .seconds(1)])
  }

  @Test func run_aTickExactlyAsLateAsTheTolerance_stillKeepsTheGrid() async throws {
    let ticks = Locked<[(start: Duration, budget: Duration)]>([])
    let sut = PriceTicker(interval: .seconds(1), clock: clock)

    clock.suspend(from: .milliseconds(500), until: .milliseconds(1100))
    let running = Task { [clock] in
      try await sut.run(count: 2) { _, budget in ticks.append((clock.elapsed, budget)) }
    }
    await clock.advance(to: .milliseconds(1100), afterSleeps: 1)
    try await running.value

    #expect(ticks.value.map(\.start) == [.zero, .milliseconds(1100)])
    #expect(
      ticks.value.map(\.budget) == [.seconds(1), .milliseconds(900)],
      "100 ms late is within the tolerance: the tick keeps what is left of its slot")
  }

  @Test func run_cancelledDuringATickThatOverranItsSlot_startsNoOtherTick() async throws {
    let slots = Locked<[Int]>([])
    let sut = PriceTicker(interval: .seconds(1), clock: clock)

    let running = Task { [clock] in
      try await sut.run { slot, _ in
        slots.append(slot)
        guard slot == 0 else { return }
        // Ctrl-C comes while the first tick runs past its slot: the next slot is already due.
        await clock.advance(to: .milliseconds(1500))
        withUnsafeCurrentTask { $0?.cancel() }
      }
    }

    await #expect(throws: CancellationError.self) { try await running.value }
    #expect(slots.value == [0])
  }

  @Test func run_endsWithWhatATickThrows() async throws {
    struct OutputClosed: Error {}
    let sut = PriceTicker(interval: .seconds(1), clock: clock)

    await #expect(throws: OutputClosed.self) {
      try await sut.run { slot, _ in if slot == 0 { throw OutputClosed() } }
    }
    #expect(clock.sleepsStarted == 0)
  }

  @Test func run_stopsTickingWhenCancelled() async throws {
    let starts = Locked<[Duration]>([])
    let sut = PriceTicker(interval: .seconds(1), clock: clock)

    let running = Task { [clock] in
      try await sut.run { _, _ in starts.append(clock.elapsed) }
    }
    await clock.advance(to: .seconds(1), afterSleeps: 1)
    await clock.advance(to: .seconds(2), afterSleeps: 2)
    await clock.advance(to: .milliseconds(2500), afterSleeps: 3)
    running.cancel()
    await #expect(throws: CancellationError.self) { try await running.value }
    await clock.advance(to: .seconds(10))

    #expect(starts.value == [.zero, .seconds(1), .seconds(2)])
  }

  @Test func run_runsExactlyCountTicksThenReturns() async throws {
    let slots = Locked<[Int]>([])
    let sut = PriceTicker(interval: .seconds(1), clock: clock)

    let running = Task { try await sut.run(count: 2) { slot, _ in slots.append(slot) } }
    await clock.advance(to: .seconds(1), afterSleeps: 1)
    try await running.value

    #expect(slots.value == [0, 1])
    #expect(clock.sleepsStarted == 1, "no sleep after the last tick")
  }
}
