import BTCPriceCore
import BTCPriceRuntime
import BTCPriceTestSupport
import Foundation
import Testing

/// A tick reads the streams first, falls back to the next alive stream and then to REST, and never
/// shows a price that two other sources contradict.
@Suite(
  "Take each tick's price from the streams first", .timeLimit(.minutes(1)), .hangLimit(.seconds(30))
)
struct StreamFirstTickUseCaseTests {
  @Test func load_deliversPrimaryStreamPriceWithoutAnyRequestWhileItIsAlive() async throws {
    let (sut, board, clock, rest, _) = makeSUT()
    board.record(.trade(Decimal(string: "68901.23")!), from: .binance)
    await clock.advance(to: .seconds(1))

    let tick = try await sut.load(within: .milliseconds(800))

    #expect(tick.quote.value == Decimal(string: "68901.23")!)
    #expect(tick.quote.source == .binance)
    #expect(tick.transport == .stream(.binance))
    #expect(rest.callCount == 0)
  }

  @Test func load_deliversTheNewestTradeAndItsArrivalTime() async throws {
    let (sut, board, _, _, _) = makeSUT()
    board.record(.trade(Decimal(string: "68900")!), from: .binance)
    board.record(.trade(Decimal(string: "68901.5")!), from: .binance)

    let tick = try await sut.load(within: .milliseconds(800))

    #expect(tick.quote.value == Decimal(string: "68901.5")!)
    #expect(tick.quote.timestamp == Date(timeIntervalSince1970: 1_795_356_185))
  }

  @Test func load_judgesAMessageReadLateByWhenItCame() async throws {
    let (sut, board, clock, _, _) = makeSUT()
    board.record(.trade(Decimal(string: "68901.23")!), from: .binance)
    await clock.advance(to: .seconds(4))
    // Read at 4 s (a tick's drain), but it reached the machine at 0.5 s.
    board.record(.trade(Decimal(string: "68902.00")!), from: .coinbase)
    board.record(
      .trade(Decimal(string: "68903.00")!), from: .binance, receivedAgo: .milliseconds(3_500))
    await clock.advance(to: .milliseconds(5_600))

    let tick = try await sut.load(within: .milliseconds(800))

    #expect(board.silence(of: .binance) == .milliseconds(5_100))
    #expect(tick.quote.source == .coinbase)
    let dated = try #require(board.entry(for: .binance).quote)
    #expect(dated.timestamp == Date(timeIntervalSince1970: 1_795_356_185 - 3.5))
  }

  @Test func load_keepsAStreamAliveOnHeartbeatsAlone() async throws {
    let (sut, board, clock, rest, _) = makeSUT()
    board.record(.trade(Decimal(string: "68901.23")!), from: .binance)
    await clock.advance(to: .seconds(4))
    board.record(.alive, from: .binance)
    await clock.advance(to: .seconds(6))

    let tick = try await sut.load(within: .milliseconds(800))

    #expect(tick.transport == .stream(.binance))
    #expect(rest.callCount == 0)
  }

  @Test func load_takesTheNextAliveStreamWhenThePrimaryFallsSilent() async throws {
    let (sut, board, clock, rest, events) = makeSUT()
    board.record(.trade(Decimal(string: "68901.23")!), from: .binance)
    await clock.advance(to: .seconds(2))
    board.record(.trade(Decimal(string: "68880.55")!), from: .coinbase)
    await clock.advance(to: .milliseconds(5_001))

    let tick = try await sut.load(within: .milliseconds(800))

    #expect(tick.quote.source == .coinbase)
    #expect(tick.transport == .stream(.coinbase))
    #expect(
      events.value == [
        .usedNextStream(.coinbase, insteadOf: .binance), .priceFrom(.stream(.coinbase), tick.quote),
      ])
    #expect(rest.callCount == 0)
  }

  @Test func load_fallsBackToTheRESTChainWhenNoStreamIsAlive() async throws {
    let (sut, board, clock, rest, events) = makeSUT()
    board.record(.trade(Decimal(string: "68901.23")!), from: .binance)
    await clock.advance(to: .seconds(6))

    let tick = try await sut.load(within: .milliseconds(800))

    #expect(tick.transport == .rest)
    #expect(tick.quote == quote("68870.10", source: .kraken))
    #expect(rest.callCount == 1)
    #expect(
      events.value == [
        .fellBackToREST(silent: [.binance, .coinbase]), .priceFrom(.rest, tick.quote),
      ])
  }

  @Test func load_fallsBackToRESTWhenAStreamWentDownEvenIfItSpokeJustBefore() async throws {
    let (sut, board, _, rest, _) = makeSUT()
    board.record(.trade(Decimal(string: "68901.23")!), from: .binance)
    board.markDown(.binance, because: .closed(code: 1001))

    let tick = try await sut.load(within: .milliseconds(800))

    #expect(tick.transport == .rest)
    #expect(rest.callCount == 1)
  }

  @Test func load_showsThePrimaryWhenTwoStreamsAgree() async throws {
    let (sut, board, _, rest, _) = makeSUT()
    board.record(.trade(Decimal(string: "68901.23")!), from: .binance)
    board.record(.trade(Decimal(string: "68880.55")!), from: .coinbase)

    let tick = try await sut.load(within: .milliseconds(800))

    #expect(tick.quote.source == .binance)
    #expect(tick.rejected == nil)
    #expect(rest.callCount == 0)
  }

  @Test func load_neverShowsAPriceTenTimesOffThatTheRefereeContradicts() async throws {
    let (sut, board, _, _, events) = makeSUT()
    board.record(.trade(Decimal(string: "689012.3")!), from: .binance)
    board.record(.trade(Decimal(string: "68880.55")!), from: .coinbase)

    let tick = try await sut.load(within: .milliseconds(800))

    #expect(tick.quote.source == .coinbase)
    #expect(tick.quote.value == Decimal(string: "68880.55")!)
    #expect(tick.rejected?.value == Decimal(string: "689012.3")!)
    #expect(events.value.count == 2)
    #expect(events.value.last == .priceFrom(.stream(.coinbase), tick.quote))
  }

  @Test func load_failsRatherThanShowEitherWhenNothingSettlesADisagreement() async throws {
    let (sut, board, _, _, _) = makeSUT(referee: .failure(.unreachable("down")))
    board.record(.trade(Decimal(string: "689012.3")!), from: .binance)
    board.record(.trade(Decimal(string: "68880.55")!), from: .coinbase)

    await #expect(throws: PriceFetchFailure.self) {
      try await sut.load(within: .milliseconds(800))
    }
  }

  /// A third stream alive settles a disagreement itself: no request to a referee.
  @Test func load_letsAThirdAliveStreamSettleADisagreement_withoutAReferee() async throws {
    let (sut, board, _, _, _, referee) = makeSUT(streams: [.binance, .coinbase, .kraken])
    board.record(.trade(Decimal(string: "689012.3")!), from: .binance)
    board.record(.trade(Decimal(string: "68880.55")!), from: .coinbase)
    board.record(.trade(Decimal(string: "68870.10")!), from: .kraken)

    let tick = try await sut.load(within: .milliseconds(800))

    #expect(tick.quote.source == .coinbase)
    #expect(tick.rejected?.value == Decimal(string: "689012.3")!)
    guard case .settled(_, _, let settledBy) = tick.crossCheck else {
      Issue.record("not settled: \(String(describing: tick.crossCheck))")
      return
    }
    #expect(settledBy == .kraken)
    #expect(referee.callCount == 0)
  }

  /// What each of two streams that nothing settles is told: how far is too far, from whom.
  @Test func load_saysWhyNeitherOfTwoDisagreeingStreamsIsShown() async throws {
    let (sut, board, _, _, _) = makeSUT(referee: .failure(.unreachable("down")))
    board.record(.trade(Decimal(string: "689012.3")!), from: .binance)
    board.record(.trade(Decimal(string: "68880.55")!), from: .coinbase)

    let failure = try await #require(throws: PriceFetchFailure.self) {
      try await sut.load(within: .milliseconds(800))
    }

    #expect(
      failure.failures.map(\.error) == [
        .invalidData("more than 2 % from coinbase (68880.55) and no third source settled it"),
        .invalidData("more than 2 % from binance (689012.3) and no third source settled it"),
      ])
  }

  /// The stream that outvoted a liar falls silent: the liar is not shown alone, REST answers.
  @Test func load_holdsBackAnOutvotedStreamWhenTheStreamThatOutvotedItFallsSilent() async throws {
    let (sut, board, clock, rest, events) = makeSUT()
    board.record(.trade(Decimal(string: "689012.3")!), from: .binance)
    board.record(.trade(Decimal(string: "68880.55")!), from: .coinbase)
    _ = try await sut.load(within: .milliseconds(800))
    await clock.advance(to: .seconds(6))
    board.record(.trade(Decimal(string: "689013.4")!), from: .binance)

    let tick = try await sut.load(within: .milliseconds(800))

    #expect(tick.transport == .rest)
    #expect(tick.quote == quote("68870.10", source: .kraken))
    #expect(rest.callCount == 1)
    #expect(events.value.contains(.heldBack(.binance)))
  }

  @Test func load_showsAHeldBackStreamAgainOnceItAgreesWithAnotherStream() async throws {
    let (sut, board, _, rest, events) = makeSUT()
    board.record(.trade(Decimal(string: "689012.3")!), from: .binance)
    board.record(.trade(Decimal(string: "68880.55")!), from: .coinbase)
    _ = try await sut.load(within: .milliseconds(800))
    board.record(.trade(Decimal(string: "68901.23")!), from: .binance)

    let tick = try await sut.load(within: .milliseconds(800))

    #expect(tick.quote.source == .binance)
    #expect(tick.quote.value == Decimal(string: "68901.23")!)
    #expect(rest.callCount == 0)
    #expect(
      events.value.suffix(2) == [
        .trustedAgain(.binance), .priceFrom(.stream(.binance), tick.quote),
      ])
  }

  // MARK: Helpers

  private func makeSUT(
    referee: Result<PriceQuote, PriceSourceError> = .success(quote("68870.10", source: .kraken))
  ) -> (
    StreamFirstPriceLoader, StreamPriceBoard, SteppedTestClock, LoaderStub,
    Locked<[StreamFirstPriceLoader.Event]>
  ) {
    let (sut, board, clock, rest, events, _) = makeSUT(
      streams: [.binance, .coinbase], referee: referee)
    return (sut, board, clock, rest, events)
  }

  private func makeSUT(
    streams: [PriceSource],
    referee: Result<PriceQuote, PriceSourceError> = .success(quote("68870.10", source: .kraken))
  ) -> (
    StreamFirstPriceLoader, StreamPriceBoard, SteppedTestClock, LoaderStub,
    Locked<[StreamFirstPriceLoader.Event]>, LoaderStub
  ) {
    let clock = SteppedTestClock()
    let board = StreamPriceBoard(
      clock: clock, now: { Date(timeIntervalSince1970: 1_795_356_185) })
    let rest = LoaderStub(clock: clock, result: .success(quote("68870.10", source: .kraken)))
    let refereeStub = LoaderStub(clock: clock, result: referee)
    let events = Locked<[StreamFirstPriceLoader.Event]>([])
    let sut = StreamFirstPriceLoader(
      board: board,
      streams: streams.map { .init(source: $0, silenceBound: .seconds(5)) },
      chain: PriceSourceChain([.init(source: .kraken, loader: rest)], clock: clock),
      referee: PriceSourceChain([.init(source: .kraken, loader: refereeStub)], clock: clock),
      onEvent: { event in events.withValue { $0.append(event) } })
    return (sut, board, clock, rest, events, refereeStub)
  }
}

@Suite(
  "Reconnect a stream with jittered exponential back-off", .timeLimit(.minutes(1)),
  .hangLimit(.seconds(30)))
struct ReconnectBackoffTests {
  @Test func nextDelay_doublesUpToTheCapWithinItsJitterRange() {
    var backoff = ReconnectBackoff(base: .milliseconds(500), cap: .seconds(4))

    let lowest = (0..<6).map { _ in backoff.nextDelay(random: 0) }

    #expect(
      lowest == [
        .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(2),
        .seconds(2),
      ])
  }

  @Test func nextDelay_neverExceedsTheCeilingOfItsAttempt() {
    var backoff = ReconnectBackoff(base: .milliseconds(500), cap: .seconds(30))

    #expect(backoff.nextDelay(random: 1) == .milliseconds(500))
    #expect(backoff.nextDelay(random: 1) == .seconds(1))
    #expect(backoff.nextDelay(random: 0.5) == .milliseconds(1_500))
  }

  @Test func theRandomJitter_spreadsOverTheWholeOfZeroToOne_andNeverLeavesIt() {
    // Clients cut at once come back spread over the whole jitter span, not in step at one end.
    // (Each bound fails by chance with a probability under 10⁻⁴⁴.)
    let draws = (0..<2_000).map { _ in ReconnectBackoff.randomJitter() }

    #expect(draws.allSatisfy { (0...1).contains($0) })
    #expect(draws.min()! < 0.05)
    #expect(draws.max()! > 0.95)
  }

  @Test func theDefaults_startAtHalfASecondAndAreCappedAtThirtySeconds() {
    // Far inside Binance's 300 connection attempts per 5 minutes per IP once the cap is reached.
    var backoff = ReconnectBackoff()

    let longest = (0..<12).map { _ in backoff.nextDelay(random: 1) }

    #expect(longest.first == .milliseconds(500))
    #expect(longest.suffix(4) == Array(repeating: .seconds(30), count: 4))
  }

  @Test func aRandomNumberOutsideZeroToOne_keepsTheDelayWithinHalfAndAllOfItsCeiling() {
    var backoff = ReconnectBackoff(base: .seconds(2), cap: .seconds(30))

    #expect(backoff.nextDelay(random: -1) == .seconds(1))
    #expect(backoff.nextDelay(random: 2) == .seconds(4))
  }

  @Test func reset_startsFromTheBaseAgain() {
    var backoff = ReconnectBackoff(base: .milliseconds(500), cap: .seconds(30))
    _ = backoff.nextDelay(random: 0)
    _ = backoff.nextDelay(random: 0)

    backoff.reset()

    #expect(backoff.nextDelay(random: 1) == .milliseconds(500))
  }
}

@Suite("Cross-check two sources")
struct CrossCheckTests {
  @Test(arguments: [
    ("68901.23", "68880.55", true), ("68901.23", "70000", true), ("68901.23", "70400", false),
    ("689012.3", "68880.55", false), ("1", "68880.55", false),
    // Exactly 2 % of the lower price apart, to the last digit, in either order; a hundredth of
    // a cent more is not.
    ("68901.23", "70279.2546", true), ("70279.2546", "68901.23", true),
    ("68901.23", "70279.2547", false), ("70279.2547", "68901.23", false),
  ])
  func agree_acceptsDifferencesUpToTwoPercent(a: String, b: String, expected: Bool) {
    #expect(CrossCheck().agree(Decimal(string: a)!, Decimal(string: b)!) == expected)
  }
}

@Suite("Feed the screen from the streams")
struct FeedFromStreamsUseCaseTests {
  @Test func update_deliversTheStreamsPriceAsFresh() async throws {
    let clock = SteppedTestClock()
    let board = StreamPriceBoard(clock: clock, now: { Date(timeIntervalSince1970: 1_795_356_185) })
    let rest = LoaderStub(clock: clock, result: .failure(.unreachable("down")))
    let loader = StreamFirstPriceLoader(
      board: board, streams: [.init(source: .binance, silenceBound: .seconds(5))],
      chain: PriceSourceChain([.init(source: .kraken, loader: rest)], clock: clock),
      referee: nil)
    let feed = PriceFeed(load: { try await loader.load(within: $0) }, cache: nil)
    board.record(.trade(Decimal(string: "68901.23")!), from: .binance)

    let update = try await feed.update(within: .milliseconds(800))

    #expect(update == .fresh(quote("68901.23", source: .binance)))
    #expect(rest.callCount == 0)
  }
}
