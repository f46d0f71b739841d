import BTCPriceCore
import BTCPriceTestSupport
import Foundation
import Testing

/// `PriceCache`: the last price on disk without a disk write every second.
@Suite("Write the cache when it matters", .timeLimit(.minutes(1)), .hangLimit(.seconds(10)))
struct WriteTheCacheWhenItMattersUseCaseTests {
  let clock = SteppedTestClock()

  @Test func sixtyFreshTicksOfAChangingPrice_writeSixTimes() async {
    let store = PriceStoreSpy()
    let sut = PriceCache(store: store, clock: clock)

    for tick in 0..<60 {
      await clock.advance(to: .seconds(tick))
      sut.record(makeQuote("\(68_000 + tick)", at: TimeInterval(tick)))
    }

    #expect(store.savedQuotes.map(\.value) == [68_000, 68_010, 68_020, 68_030, 68_040, 68_050])
  }

  @Test func anUnchangedPrice_isNeverWrittenWhileTheRunGoesOn() async {
    let store = PriceStoreSpy(stored: makeQuote("68901.23", at: 0))
    let sut = PriceCache(store: store, clock: clock)
    _ = try? sut.load()

    for tick in 0..<60 {
      await clock.advance(to: .seconds(tick))
      sut.record(makeQuote("68901.23", at: TimeInterval(tick)))
    }

    #expect(store.savedQuotes.isEmpty)
  }

  @Test func aChangeWhileTicksFail_isWrittenOnceItsIntervalIsOver() async {
    let store = PriceStoreSpy()
    let sut = PriceCache(store: store, clock: clock)
    sut.record(makeQuote("1", at: 0))
    await clock.advance(to: .seconds(3))
    sut.record(makeQuote("2", at: 3))

    for tick in 4...12 {
      await clock.advance(to: .seconds(tick))
      sut.record(nil)
    }

    #expect(store.savedQuotes == [makeQuote("1", at: 0), makeQuote("2", at: 3)])
  }

  @Test func flush_writesTheNewestQuoteWithItsOwnTime() async {
    let store = PriceStoreSpy()
    let sut = PriceCache(store: store, clock: clock)
    sut.record(makeQuote("1", at: 0))
    await clock.advance(to: .seconds(2))
    sut.record(makeQuote("2", at: 2))
    await clock.advance(to: .seconds(3))
    sut.record(makeQuote("2", at: 3))

    sut.flush()
    sut.flush()

    #expect(store.savedQuotes == [makeQuote("1", at: 0), makeQuote("2", at: 3)])
    #expect(!sut.hasUnsavedQuote)
  }

  @Test func flush_afterAnUnchangedPrice_refreshesItsTime() async {
    let store = PriceStoreSpy(stored: makeQuote("5", at: 0))
    let sut = PriceCache(store: store, clock: clock)
    _ = try? sut.load()
    sut.record(makeQuote("5", at: 30))

    sut.flush()

    #expect(store.savedQuotes == [makeQuote("5", at: 30)])
  }

  @Test func flush_writesNothingWhenNothingNewCame() throws {
    let store = PriceStoreSpy(stored: makeQuote("5", at: 0))
    let sut = PriceCache(store: store, clock: clock)
    _ = try sut.load()

    sut.flush()

    #expect(store.savedQuotes.isEmpty)
  }

  @Test func aFailingWrite_warnsOnceAndIsRetriedNoSoonerThanTheNextInterval() async {
    let store = PriceStoreSpy(saveError: "disk full")
    let warnings = Locked<[PriceFeedWarning]>([])
    let sut = PriceCache(store: store, clock: clock, warn: { warnings.append($0) })

    for tick in 0..<12 {
      await clock.advance(to: .seconds(tick))
      if tick == 10 { store.failSaves(nil) }
      sut.record(makeQuote("\(tick + 1)", at: TimeInterval(tick)))
    }

    #expect(warnings.value == [.cacheNotSaved("disk full")])
    #expect(store.savedQuotes == [makeQuote("11", at: 10)])
  }

  private func makeQuote(_ value: String, at seconds: TimeInterval) -> PriceQuote {
    BTCPriceCoreTests.makeQuote(value, at: 1_795_356_185 + seconds)
  }
}
