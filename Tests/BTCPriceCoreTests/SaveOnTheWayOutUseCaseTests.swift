import BTCPriceCore
import BTCPriceRuntime
import BTCPriceTestSupport
import Foundation
import Testing

/// `PriceFeed.flush()`: the app calls it on its way to the background, so the next launch starts
/// from the last value the screen showed.
@Suite(
  "Save the last known price on the way out", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct SaveOnTheWayOutUseCaseTests {
  let clock = SteppedTestClock()

  @Test func flush_savesTheLastKnownQuoteWhoseSaveFailed() async throws {
    let store = PriceStoreSpy(saveError: "disk full")
    let sut = makeSUT(answering: quote("68901.23"), store: store)
    _ = try await sut.update(within: .seconds(1))
    store.failSaves(nil)

    await sut.flush()

    #expect(store.savedQuotes == [quote("68901.23")])
  }

  @Test func flush_writesNothingWhenTheLastKnownQuoteIsSaved() async throws {
    let store = PriceStoreSpy()
    let sut = makeSUT(answering: quote("68901.23"), store: store)
    _ = try await sut.update(within: .seconds(1))

    await sut.flush()
    await sut.flush()

    #expect(store.savedQuotes == [quote("68901.23")])
  }

  @Test func flush_writesNothingWhenTheValueCameFromTheStore() async {
    let store = PriceStoreSpy(stored: quote("68000.00"))
    let sut = makeSUT(answering: quote("68901.23"), store: store)
    await sut.restore()

    await sut.flush()

    #expect(store.savedQuotes.isEmpty)
  }

  @Test func flush_writesNothingWhenNothingIsKnown() async {
    let store = PriceStoreSpy()
    let sut = makeSUT(answering: quote(), store: store)

    await sut.flush()

    #expect(store.savedQuotes.isEmpty)
  }

  @Test func flush_thatFailsAgain_keepsTheQuoteForTheNextFlushAndWarnsNoMore() async throws {
    let store = PriceStoreSpy(saveError: "disk full")
    let warnings = Locked<[PriceFeedWarning]>([])
    let sut = makeSUT(
      answering: quote("68901.23"), store: store, warn: { warnings.append($0) })
    _ = try await sut.update(within: .seconds(1))

    await sut.flush()
    store.failSaves(nil)
    await sut.flush()

    #expect(warnings.value == [.cacheNotSaved("disk full")])
    #expect(store.savedQuotes == [quote("68901.23")])
  }

  @Test func flush_worksWithoutAStore() async throws {
    let sut = makeSUT(answering: quote(), store: nil)
    _ = try await sut.update(within: .seconds(1))

    await sut.flush()

    #expect(await sut.lastKnown == quote())
  }

  // MARK: - Helpers

  private func makeSUT(
    answering quote: PriceQuote, store: PriceStoreSpy?,
    warn: @escaping @Sendable (PriceFeedWarning) -> Void = { _ in }
  ) -> PriceFeed {
    let loader = LoaderStub(clock: clock, result: .success(quote))
    let chain = PriceSourceChain([.init(source: .binance, loader: loader)], clock: clock)
    return PriceFeed(
      chain: chain,
      cache: store.map { PriceCache(store: $0, clock: clock, minimumInterval: .zero, warn: warn) },
      warn: warn)
  }
}
