import BTCPriceCore
import BTCPriceRuntime
import BTCPriceTestSupport
import Foundation
import Testing

@Suite(
  "Keep the last known price (cache, stale values)", .timeLimit(.minutes(1)),
  .hangLimit(.seconds(30)))
struct KeepLastKnownPriceUseCaseTests {
  let clock = SteppedTestClock()

  @Test func update_deliversFreshQuoteAndSavesIt() async throws {
    let store = PriceStoreSpy()
    let sut = makeSUT(results: [.success(quote("68901.23"))], store: store)

    let update = try await sut.update(within: .seconds(1))

    #expect(update == .fresh(quote("68901.23")))
    #expect(store.savedQuotes == [quote("68901.23")])
    #expect(await sut.lastKnown == quote("68901.23"))
  }

  @Test func update_deliversCachedQuoteAsStaleWhenFirstTickFails() async throws {
    let cached = quote("68000.00", at: Date(timeIntervalSince1970: 1_763_700_000))
    let sut = makeSUT(
      results: [.failure(.unreachable("connection refused"))], store: PriceStoreSpy(stored: cached))

    #expect(await sut.restore() == cached)
    let update = try await sut.update(within: .seconds(1))

    #expect(update.quote == cached)
    guard case .stale(_, let failure) = update else {
      Issue.record("expected a stale update, got \(update)")
      return
    }
    #expect(failure.description.contains("connection refused"))
  }

  @Test func update_deliversStaleWithoutValueWhenNothingIsKnown() async throws {
    let sut = makeSUT(results: [.failure(.invalidData("empty body"))], store: PriceStoreSpy())

    await sut.restore()
    let update = try await sut.update(within: .seconds(1))

    #expect(update.quote == nil)
  }

  @Test func update_recoversOnNextSuccessAfterFailure() async throws {
    let sut = makeSUT(
      results: [
        .success(quote("68901.00")), .failure(.httpStatus(500, message: nil)),
        .success(quote("68902.00")),
      ],
      store: PriceStoreSpy())

    let updates = [
      try await sut.update(within: .seconds(1)),
      try await sut.update(within: .seconds(1)),
      try await sut.update(within: .seconds(1)),
    ]

    #expect(updates[0] == .fresh(quote("68901.00")))
    #expect(updates[1].quote == quote("68901.00"))
    #expect(updates[2] == .fresh(quote("68902.00")))
  }

  @Test func restore_warnsOnceAndStartsEmptyWhenCacheIsUnreadable() async throws {
    let warnings = Locked<[PriceFeedWarning]>([])
    let sut = makeSUT(
      results: [], store: PriceStoreSpy(loadError: "corrupt JSON"),
      warn: { warnings.append($0) })

    #expect(await sut.restore() == nil)

    #expect(warnings.value == [.cacheUnreadable("corrupt JSON")])
  }

  @Test func update_keepsTickingAndWarnsOncePerRunOfFailedSaves() async throws {
    let store = PriceStoreSpy(saveError: "read-only file system")
    let warnings = Locked<[PriceFeedWarning]>([])
    let sut = makeSUT(
      results: (1...4).map { .success(quote("6890\($0)")) }, store: store,
      warn: { warnings.append($0) })

    #expect(try await sut.update(within: .seconds(1)) == .fresh(quote("68901")))
    #expect(try await sut.update(within: .seconds(1)) == .fresh(quote("68902")))
    store.failSaves(nil)
    _ = try await sut.update(within: .seconds(1))
    store.failSaves("disk full")
    _ = try await sut.update(within: .seconds(1))

    #expect(
      warnings.value == [.cacheNotSaved("read-only file system"), .cacheNotSaved("disk full")])
    #expect(store.savedQuotes == [quote("68903")])
    #expect(await sut.lastKnown == quote("68904"))
  }

  @Test func restore_afterATick_keepsThePriceShownWhenTheCachedOneIsOfTheSameMoment() async throws {
    // The screen comes back (restore again) while the cache holds another source's price of the
    // same instant, written by another process (the widget); saves fail here, so it stays.
    let shown = quote("68901.23", at: quoteTime)
    let store = PriceStoreSpy(
      stored: quote("68000.00", source: .coinbase, at: quoteTime), saveError: "read-only")
    let sut = makeSUT(results: [.success(shown)], store: store)
    _ = try await sut.update(within: .seconds(1))

    #expect(await sut.restore() == shown)
  }

  @Test func aPriceNotWrittenYet_isWrittenOnceItsIntervalIsOver_whileTheSourcesFail() async throws {
    let store = PriceStoreSpy()
    let down = Array(
      repeating: Result<PriceQuote, PriceSourceError>.failure(.unreachable("down")), count: 10)
    let chain = PriceSourceChain(
      [
        .init(
          source: .binance,
          loader: SequenceLoader([.success(quote("68901")), .success(quote("68902"))] + down),
          timeout: .milliseconds(800))
      ], clock: clock)
    let sut = PriceFeed(chain: chain, cache: PriceCache(store: store, clock: clock))
    _ = try await sut.update(within: .seconds(1))
    await clock.advance(to: .seconds(3))
    _ = try await sut.update(within: .seconds(1))

    for tick in 4...12 {
      await clock.advance(to: .seconds(tick))
      _ = try await sut.update(within: .seconds(1))
    }

    #expect(
      store.savedQuotes == [quote("68901"), quote("68902")],
      "68902 was written at 10 s, by a failed tick")
  }

  @Test func update_worksWithoutAStore() async throws {
    let sut = makeSUT(results: [.success(quote())], store: nil)

    #expect(await sut.restore() == nil)
    #expect(try await sut.update(within: .seconds(1)) == .fresh(quote()))
  }

  // MARK: - Helpers

  @Test func update_dropsAQuoteThatArrivesAsTheTickIsCancelled() async throws {
    let store = PriceStoreSpy()
    let loader = CancelsTheTick(quote: quote())
    let chain = PriceSourceChain([.init(source: .binance, loader: loader)], clock: clock)
    let sut = PriceFeed(chain: chain, cache: PriceCache(store: store, clock: clock))

    let tick = Task { try await sut.update(within: .seconds(1)) }
    loader.cancelTick.withValue { $0 = { tick.cancel() } }

    await #expect(throws: CancellationError.self) { try await tick.value }
    #expect(store.savedQuotes.isEmpty)
    #expect(await sut.lastKnown == nil)
  }

  private func makeSUT(
    results: [Result<PriceQuote, PriceSourceError>],
    store: PriceStoreSpy?,
    warn: @escaping @Sendable (PriceFeedWarning) -> Void = { _ in }
  ) -> PriceFeed {
    let chain = PriceSourceChain(
      [.init(source: .binance, loader: SequenceLoader(results), timeout: .milliseconds(800))],
      clock: clock)
    return PriceFeed(
      chain: chain,
      cache: store.map { PriceCache(store: $0, clock: clock, minimumInterval: .zero, warn: warn) },
      warn: warn)
  }
}

/// Delivers the given results one per call, at once.
private final class SequenceLoader: PriceLoader {
  private let results: Locked<[Result<PriceQuote, PriceSourceError>]>

  init(_ results: [Result<PriceQuote, PriceSourceError>]) {
    self.results = Locked(results)
  }

  func load() async throws -> PriceQuote {
    try results.withValue { $0.removeFirst() }.get()
  }
}

/// Delivers its quote, but cancels the tick first: the race between an answer and a cancellation
/// (going to the background, Ctrl-C), decided in the worst order.
private struct CancelsTheTick: PriceLoader {
  let quote: PriceQuote
  let cancelTick = Locked<(@Sendable () -> Void)?>(nil)

  func load() async throws -> PriceQuote {
    while cancelTick.value == nil { await Task.yield() }
    cancelTick.value?()
    return quote
  }
}
