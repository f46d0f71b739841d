import BTCPriceCore
import BTCPriceRuntime
import BTCPriceTestSupport
import Foundation
import Testing

/// A price from REST that moved more than 2 % from the last price shown within ten minutes is
/// shown only once a second source agrees with it; one that a second source contradicts (it
/// agrees with the last price instead) is never shown. The answers are scripted: `7.419271e-4`
/// is the mangled payload that once became a price.
@Suite("Confirm a price that moved", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct ConfirmAPriceThatMovedUseCaseTests {
  let clock = SteppedTestClock()
  /// The last price shown, a second before the tick's answers.
  let last = quote("68901.23", at: quoteTime.addingTimeInterval(-1))

  @Test func aPriceWithinTwoPercentOfTheLastOne_isShownWithoutAskingAnother() async throws {
    let (sut, sources, _) = makeSUT(["70278.00"], ["1"])

    #expect(try await sut.load(within: .seconds(1), reference: last) == answer("70278.00"))
    #expect(sources[1].calls.isEmpty)
  }

  /// 2 % of the lower price is the bound, as for two streams: 102,000 against 100,000 agrees,
  /// a cent more does not.
  @Test(arguments: [
    ("102000", false), ("102000.01", true), ("98039.22", false), ("98039.21", true),
  ])
  func theBound_isTwoPercentOfTheLowerPrice(price: String, asksAnother: Bool) async throws {
    let reference = quote("100000", at: quoteTime)
    let (sut, sources, _) = makeSUT([price], [price])

    #expect(try await sut.load(within: .seconds(1), reference: reference) == answer(price))
    #expect(sources[1].calls.count == (asksAnother ? 1 : 0))
  }

  @Test func aMoveThatTheNextSourceConfirms_isShownFromTheFirst() async throws {
    let (sut, sources, events) = makeSUT(["75000.00"], ["75100.00"], ["1"])

    #expect(try await sut.load(within: .seconds(1), reference: last) == answer("75000.00"))
    #expect(sources[1].calls.count == 1)
    #expect(sources[2].calls.isEmpty)
    #expect(events.value.failures.isEmpty)
  }

  @Test func anAnswerTheNextSourceContradicts_isNotShown_andCountsAgainstItsSource() async throws {
    let (sut, _, events) = makeSUT(["7.419271e-4"], ["68890.55"])

    #expect(
      try await sut.load(within: .seconds(1), reference: last) == answer("68890.55", from: 1))
    #expect(
      events.value.failures == [
        .init(
          source: .binance,
          error: .invalidData(
            "price 0.0007419271 is more than 2 % from coinbase's 68890.55, which the last price "
              + "(68901.23) confirmed"))
      ])
  }

  /// The second answer agrees with neither: the third settles it, for the first.
  @Test func aThirdSourceSettles_whenTheSecondAgreesWithNeither() async throws {
    let (sut, sources, events) = makeSUT(["75000.00"], ["30000.00"], ["75050.00"])

    #expect(try await sut.load(within: .seconds(1), reference: last) == answer("75000.00"))
    #expect(sources[2].calls.count == 1)
    #expect(events.value.failures.map(\.source) == [.coinbase])
  }

  @Test func aThirdSourceSettles_forTheLastPrice() async throws {
    let (sut, _, events) = makeSUT(["75000.00"], ["30000.00"], ["68950.00"])

    #expect(
      try await sut.load(within: .seconds(1), reference: last) == answer("68950.00", from: 2))
    #expect(events.value.failures.map(\.source) == [.binance, .coinbase])
  }

  @Test func whenNoOtherSourceAnswers_theTickFails_sayingWhy() async throws {
    let (sut, _, events) = makeSUT(
      ["7.419271e-4"], [], [],
      failing: [1: .httpStatus(500, message: nil), 2: .timedOut(after: .zero)])

    await #expect(
      throws: PriceFetchFailure(failures: [
        .init(
          source: .binance,
          error: .invalidData(
            "price 0.0007419271 is more than 2 % from the last price 68901.23 and no other "
              + "source confirmed it")),
        .init(source: .coinbase, error: .httpStatus(500, message: nil)),
        .init(source: .kraken, error: .timedOut(after: .zero)),
      ])
    ) {
      try await sut.load(within: .seconds(1), reference: last)
    }
    // The confirmation's own failures come first, as it asks; then the answer it could not confirm.
    #expect(events.value.failures.map(\.source) == [.coinbase, .kraken, .binance])
  }

  /// An unconfirmed move is not the source's fault (the market may have moved): its breaker is
  /// left as it is. A contradicted answer is, and three of them rest the source.
  @Test func onlyAContradictedAnswer_restsTheSource() async throws {
    let (sut, sources, _) = makeSUT(["7.419271e-4"], ["68890.55"])

    for _ in 0..<3 { _ = try await sut.load(within: .seconds(1), reference: last) }
    _ = try await sut.load(within: .seconds(1), reference: last)

    #expect(sources[0].calls.count == 3)
  }

  @Test func aSourceThatFailedBeforeTheAnswer_isNotAskedAgainToConfirmIt() async throws {
    let (sut, sources, _) = makeSUT(
      [], ["75000.00"], ["75020.00"], failing: [0: .httpStatus(503, message: nil)])

    #expect(
      try await sut.load(within: .seconds(1), reference: last) == answer("75000.00", from: 1))
    #expect(sources[0].calls.count == 1)
    #expect(sources[2].calls.count == 1)
  }

  /// After a long gap (a cache from yesterday) the last price says nothing about today's.
  @Test(arguments: [(-600.0, true), (-601.0, false), (600.0, true), (601.0, false)])
  func theLastPriceCounts_forTenMinutesEitherWay(offset: TimeInterval, counts: Bool)
    async throws
  {
    let reference = quote("68901.23", at: quoteTime.addingTimeInterval(offset))
    let (sut, sources, _) = makeSUT(["75000.00"], ["68950.00"])

    let shown = try await sut.load(within: .seconds(1), reference: reference)

    #expect(shown == (counts ? answer("68950.00", from: 1) : answer("75000.00")))
    #expect(sources[1].calls.count == (counts ? 1 : 0))
  }

  @Test func withoutALastPrice_orOneInAnotherCurrency_theFirstAnswerIsShown() async throws {
    let (sut, sources, _) = makeSUT(["75000.00"], ["68950.00"])

    #expect(try await sut.load(within: .seconds(1)) == answer("75000.00"))
    let euros = quote("63000.00", currency: "EUR", at: quoteTime)
    #expect(try await sut.load(within: .seconds(1), reference: euros) == answer("75000.00"))
    #expect(sources[1].calls.isEmpty)
  }

  /// The confirmation is asked within the tick: the second source gets what is left of it.
  @Test func theConfirmation_hasWhatIsLeftOfTheTick() async throws {
    let slow = ScriptedLoader(clock: clock, answersAfter: .milliseconds(300), .answer(answer("1")))
    let sut = PriceSourceChain(
      [
        .init(
          source: .binance,
          loader: ScriptedLoader(
            clock: clock, answersAfter: .milliseconds(800), .answer(answer("75000.00"))),
          timeout: .seconds(1)),
        .init(source: .coinbase, loader: slow),
      ], clock: clock)

    let load = Task { try await sut.load(within: .seconds(1), reference: last) }
    await clock.advance(to: .milliseconds(800), afterSleeps: 2)
    await clock.advance(to: .seconds(1), afterSleeps: 4)

    await #expect {
      try await load.value
    } throws: { error in
      (error as? PriceFetchFailure)?.failures.last
        == .init(source: .coinbase, error: .timedOut(after: .milliseconds(200)))
    }
    #expect(slow.calls == [.milliseconds(800)])
  }

  // MARK: The feed

  /// The feed's last known price is the reference: a cached one at start, then each price shown.
  @Test func theFeed_checksEachAnswerAgainstItsLastKnownPrice() async throws {
    let store = InMemoryPriceStore(stored: last)
    let (chain, _, _) = makeSUT(["7.419271e-4", "75000.00"], ["68890.55", "75010.00"])
    let feed = PriceFeed(chain: chain, cache: PriceCache(store: store, clock: clock))
    await feed.restore()

    let first = try await feed.update(within: .seconds(1))
    let second = try await feed.update(within: .seconds(1))

    #expect(first == .fresh(answer("68890.55", from: 1), crossCheck: nil))
    #expect(second == .fresh(answer("75000.00"), crossCheck: nil))
  }

  // MARK: Helpers

  private static let sources: [PriceSource] = [.binance, .coinbase, .kraken]

  /// A quote of the tick's answer from source `index` of the chain.
  private func answer(_ value: String, from index: Int = 0) -> PriceQuote {
    quote(value, source: Self.sources[index])
  }

  /// A chain of Binance, Coinbase and Kraken; each source answers its list of prices in turn
  /// (the last one again and again), or fails as `failing` says.
  private func makeSUT(_ prices: [String]..., failing: [Int: PriceSourceError] = [:])
    -> (PriceSourceChain, [ScriptedLoader], Locked<[PriceSourceEvent]>)
  {
    let loaders = Self.sources.indices.map { index in
      let steps = index < prices.count ? prices[index] : []
      return ScriptedLoader(
        steps: failing[index].map { [.fail($0)] }
          ?? (steps.isEmpty
            ? [.fail(.unreachable("down"))] : steps.map { .answer(answer($0, from: index)) }))
    }
    let events = Locked<[PriceSourceEvent]>([])
    let sut = PriceSourceChain(
      Self.sources.indices.map {
        .init(source: Self.sources[$0], loader: loaders[$0], timeout: $0 == 0 ? .seconds(1) : nil)
      }, clock: clock, onEvent: { event in events.append(event) })
    return (sut, loaders, events)
  }
}

extension [PriceSourceEvent] {
  /// The failures reported, in order, as the chain's failures list them.
  fileprivate var failures: [PriceFetchFailure.SourceFailure] {
    compactMap {
      if case .failed(let source, let error, _) = $0 {
        .init(source: source, error: error)
      } else {
        nil
      }
    }
  }
}
