import BTCPriceCore
import BTCPriceRuntime
import BTCPriceTestSupport
import Testing

@Suite(
  "Skip failing sources: the chain with circuit breakers", .timeLimit(.minutes(1)),
  .hangLimit(.seconds(30)))
struct SkipFailingSourcesUseCaseTests {
  let clock = SteppedTestClock()
  let events = Locked<[PriceSourceEvent]>([])

  @Test func deadPrimary_isAskedSixTimesInSixtyTicksInsteadOfSixty() async throws {
    let primary = ScriptedLoader(clock: clock, .fail(.unreachable("connection refused")))
    let fallback = ScriptedLoader(clock: clock, .answer(quote(source: .coinbase)))
    let sut = makeSUT(primary, fallback)

    for tick in 0..<60 {
      await clock.advance(to: .seconds(tick))
      #expect(try await sut.load(within: .seconds(1)).source == .coinbase)
    }

    // 3 failures open the circuit for 5 s; probes at 7, 17 and 37 s fail and double it each time.
    #expect(primary.calls == [0, 1, 2, 7, 17, 37].map { Duration.seconds($0) })
    #expect(fallback.calls.count == 60)
  }

  @Test func openPrimary_costsTheFallbackNoTime() async throws {
    let primary = ScriptedLoader(
      clock: clock, answersAfter: .seconds(5), .answer(quote()))
    let fallback = ScriptedLoader(clock: clock, .answer(quote(source: .coinbase)))
    let sut = makeSUT(primary, fallback)

    for tick in 0..<3 {
      await clock.advance(to: .seconds(tick))
      let sleepsBefore = clock.sleepsStarted
      let load = Task { try await sut.load(within: .seconds(1)) }
      await clock.advance(to: .seconds(tick) + .milliseconds(800), afterSleeps: sleepsBefore + 2)
      _ = try await load.value
    }
    await clock.advance(to: .seconds(3))
    _ = try await sut.load(within: .seconds(1))

    // Ticks 0-2 waited out the primary's 800 ms; tick 3 asks the fallback at once.
    #expect(
      fallback.calls == [
        .milliseconds(800), .milliseconds(1800), .milliseconds(2800), .seconds(3),
      ])
  }

  @Test func recoveredPrimary_isClosedAgainAfterOneSuccessfulProbe() async throws {
    let primary = ScriptedLoader(
      clock: clock,
      .fail(.httpStatus(502, message: nil)), .fail(.httpStatus(502, message: nil)),
      .fail(.httpStatus(502, message: nil)), .answer(quote()))
    let fallback = ScriptedLoader(clock: clock, .answer(quote(source: .coinbase)))
    let sut = makeSUT(primary, fallback)

    var sources: [PriceSource] = []
    for tick in 0..<10 {
      await clock.advance(to: .seconds(tick))
      sources.append(try await sut.load(within: .seconds(1)).source)
    }

    #expect(
      sources == Array(repeating: .coinbase, count: 7) + Array(repeating: .binance, count: 3))
    #expect(
      binanceTransitions() == [
        CircuitTransition(
          from: .closed, to: .open, coolDown: .seconds(5),
          cause: .httpStatus(502, message: nil)),
        CircuitTransition(from: .open, to: .halfOpen),
        CircuitTransition(from: .halfOpen, to: .closed),
      ])
  }

  @Test func rateLimitedPrimary_isNotAskedBeforeRetryAfter() async throws {
    let primary = ScriptedLoader(
      clock: clock,
      .fail(.rateLimited(status: 429, retryAfter: .seconds(30), message: "slow down")),
      .answer(quote()))
    let fallback = ScriptedLoader(clock: clock, .answer(quote(source: .coinbase)))
    let sut = makeSUT(primary, fallback)

    for tick in 0..<40 {
      await clock.advance(to: .seconds(tick))
      _ = try await sut.load(within: .seconds(1))
    }

    #expect(primary.calls == [.zero] + (30..<40).map { .seconds($0) })
  }

  @Test func skippedSource_isReportedWithItsCoolDownInTheFailure() async throws {
    let primary = ScriptedLoader(clock: clock, .fail(.httpStatus(451, message: nil)))
    let fallback = ScriptedLoader(clock: clock, .fail(.invalidData("no RAW object")))
    let sut = makeSUT(primary, fallback)

    _ = try? await sut.load(within: .seconds(1))
    await clock.advance(to: .seconds(90))
    let failure = try #require(
      await #expect(throws: PriceFetchFailure.self) { try await sut.load(within: .seconds(1)) })

    #expect(
      failure.description
        == "binance: not tried: cooling down for 59 min after: HTTP 451; "
        + "coinbase: invalid data: no RAW object")
    #expect(events.value.contains(.skipped(.binance, failure.failures[0].error)))
  }

  @Test func withoutBreakers_everySourceIsAskedOnEveryTick() async throws {
    let primary = ScriptedLoader(clock: clock, .fail(.unreachable("connection refused")))
    let fallback = ScriptedLoader(clock: clock, .answer(quote(source: .coinbase)))
    let sut = makeSUT(primary, fallback, breakers: nil)

    for tick in 0..<10 {
      await clock.advance(to: .seconds(tick))
      _ = try await sut.load(within: .seconds(1))
    }

    #expect(primary.calls.count == 10)
  }

  @Test func reportsEveryAttemptWithItsLatency() async throws {
    let primary = ScriptedLoader(clock: clock, .fail(.httpStatus(500, message: nil)))
    let fallback = ScriptedLoader(clock: clock, .answer(quote(source: .coinbase)))
    let sut = makeSUT(primary, fallback)

    _ = try await sut.load(within: .seconds(1))

    #expect(
      events.value == [
        .failed(.binance, .httpStatus(500, message: nil), latency: .zero),
        .delivered(.coinbase, quote(source: .coinbase), latency: .zero),
      ])
  }

  @Test func limitFromAnEarlierRun_isRespectedUntilItEndsAndSaysWhereItCameFrom() async throws {
    let primary = ScriptedLoader(clock: clock, .answer(quote()))
    let fallback = ScriptedLoader(clock: clock, .answer(quote(source: .coinbase)))
    let ban = PriceSourceError.rateLimited(status: 418, retryAfter: .seconds(600), message: nil)
    let sut = makeSUT(
      primary, fallback,
      inheritedLimits: ["binance": .init(remaining: .seconds(599), cause: ban)])

    for tick in [0, 1, 598, 599, 600] {
      await clock.advance(to: .seconds(tick))
      _ = try await sut.load(within: .seconds(1))
    }

    #expect(primary.calls == [.seconds(599), .seconds(600)])
    #expect(
      events.value.first
        == .skipped(
          .binance,
          .skipped(
            "cooling down for 10 min after: rate limited: HTTP 418 (retry after 10 min)"
              + " (a limit from an earlier run)")))
  }

  /// After the earlier run's limit, the source's own refusal is its own: not said to come from
  /// an earlier run.
  @Test func aLimitOfThisRunAfterOneFromAnEarlierRun_isNotSaidToComeFromIt() async throws {
    let ban = PriceSourceError.rateLimited(status: 418, retryAfter: .seconds(600), message: nil)
    let primary = ScriptedLoader(clock: clock, .fail(ban))
    let fallback = ScriptedLoader(clock: clock, .answer(quote(source: .coinbase)))
    let sut = makeSUT(
      primary, fallback, inheritedLimits: ["binance": .init(remaining: .seconds(5), cause: ban)])

    for tick in [5, 6] {
      await clock.advance(to: .seconds(tick))
      _ = try await sut.load(within: .seconds(1))
    }

    #expect(primary.calls == [.seconds(5)])
    #expect(
      events.value.last(where: { if case .skipped(.binance, _) = $0 { true } else { false } })
        == .skipped(
          .binance,
          .skipped("cooling down for 10 min after: rate limited: HTTP 418 (retry after 10 min)")))
  }

  /// The fall back reached at the tick's last instant has no time: skipped (its probe kept,
  /// where a breaker guards it), with or without breakers (the referee's chain has none).
  @Test(arguments: [CircuitBreakerPolicy.standard, nil])
  func aFallBackReachedAtTheTicksLastInstant_isSkipped(breakers: CircuitBreakerPolicy?)
    async throws
  {
    let primary = ScriptedLoader(clock: clock, .hang)
    let fallback = ScriptedLoader(clock: clock, .answer(quote(source: .coinbase)))
    let sut = makeSUT(primary, fallback, breakers: breakers)

    let load = Task { try await sut.load(within: .milliseconds(800)) }
    await clock.advance(to: .milliseconds(800), afterSleeps: 1)
    _ = try? await load.value

    #expect(fallback.calls.isEmpty)
    #expect(events.value.last == .skipped(.coinbase, .skipped("no time left in this tick")))
  }

  @Test func refusalInTheBody_leavesTheSourceAloneForAnHour() async throws {
    let primary = ScriptedLoader(
      clock: clock, .fail(.refused("You need a valid auth key or api key")))
    let fallback = ScriptedLoader(clock: clock, .answer(quote(source: .coinbase)))
    let sut = makeSUT(primary, fallback)

    for tick in [0, 1, 3599, 3600] {
      await clock.advance(to: .seconds(tick))
      _ = try await sut.load(within: .seconds(1))
    }

    #expect(primary.calls == [.zero, .seconds(3600)])
  }

  /// A probe is the one call a cooling source gets; a tick with no time left must not spend it
  /// (nor log "one probe" for a call that is never made).
  @Test func tickWithNoTimeLeft_doesNotSpendTheProbe() async throws {
    let primary = ScriptedLoader(clock: clock, .fail(.unreachable("connection refused")))
    let fallback = ScriptedLoader(clock: clock, .answer(quote(source: .coinbase)))
    let sut = makeSUT(primary, fallback)
    for tick in 0..<3 {
      await clock.advance(to: .seconds(tick))
      _ = try await sut.load(within: .seconds(1))
    }
    await clock.advance(to: .seconds(8))
    events.withValue { $0.removeAll() }

    _ = try? await sut.load(within: .zero)

    #expect(
      events.value == [
        .skipped(.binance, .skipped("no time left in this tick")),
        .skipped(.coinbase, .skipped("no time left in this tick")),
      ])
    _ = try await sut.load(within: .seconds(1))
    #expect(primary.calls.last == .seconds(8), "the probe is still there for the next tick")
  }

  // MARK: - Helpers

  private func makeSUT(
    _ primary: ScriptedLoader, _ fallback: ScriptedLoader,
    breakers: CircuitBreakerPolicy? = .standard,
    inheritedLimits: [String: PriceSourceChain.InheritedLimit] = [:]
  ) -> PriceSourceChain {
    PriceSourceChain(
      [
        .init(source: .binance, loader: primary, timeout: .milliseconds(800)),
        .init(source: .coinbase, loader: fallback),
      ],
      clock: clock, breakers: breakers, inheritedLimits: inheritedLimits
    ) { [events] event in events.append(event) }
  }

  private func binanceTransitions() -> [CircuitTransition] {
    events.value.compactMap {
      if case .circuitChanged(.binance, let transition) = $0 { transition } else { nil }
    }
  }
}
