import BTCPriceCore
import BTCPriceRuntime
import BTCPriceTestSupport
import Foundation
import Testing

/// `PriceCache`: the last price on disk without a disk write every second.
@Suite("Write the cache when it matters", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct WriteTheCacheWhenItMattersUseCaseTests {
  let clock = SteppedTestClock()

  @Test func sixtyFreshTicksOfAChangingPrice_writeSixTimes() async {
    let store = PriceStoreSpy()
    let sut = PriceCache(store: store, clock: clock)

    for tick in 0..<60 {
      await clock.advance(to: .seconds(tick))
      sut.record(quote("\(68_000 + tick)", at: quoteTime + TimeInterval(tick)))
    }

    #expect(store.savedQuotes.map(\.value) == [68_000, 68_010, 68_020, 68_030, 68_040, 68_050])
  }

  @Test func anUnchangedPrice_isNeverWrittenWhileTheRunGoesOn() async {
    let store = PriceStoreSpy(stored: quote("68901.23", at: quoteTime))
    let sut = PriceCache(store: store, clock: clock)
    _ = try? sut.load()

    for tick in 0..<60 {
      await clock.advance(to: .seconds(tick))
      sut.record(quote("68901.23", at: quoteTime + TimeInterval(tick)))
    }

    #expect(store.savedQuotes.isEmpty)
  }

  @Test func aChangeWhileTicksFail_isWrittenOnceItsIntervalIsOver() async {
    let store = PriceStoreSpy()
    let sut = PriceCache(store: store, clock: clock)
    sut.record(quote("1", at: quoteTime))
    await clock.advance(to: .seconds(3))
    sut.record(quote("2", at: quoteTime + 3))

    for tick in 4...12 {
      await clock.advance(to: .seconds(tick))
      sut.record(nil)
    }

    #expect(store.savedQuotes == [quote("1", at: quoteTime), quote("2", at: quoteTime + 3)])
  }

  @Test func aWrittenPrice_isNotWrittenAgainWhileTheTicksFail() async {
    let store = PriceStoreSpy()
    let sut = PriceCache(store: store, clock: clock)
    sut.record(quote("1", at: quoteTime))

    for tick in 1...35 {
      await clock.advance(to: .seconds(tick))
      sut.record(nil)
    }

    #expect(store.savedQuotes == [quote("1", at: quoteTime)])
  }

  @Test func flush_writesTheNewestQuoteWithItsOwnTime() async {
    let store = PriceStoreSpy()
    let sut = PriceCache(store: store, clock: clock)
    sut.record(quote("1", at: quoteTime))
    await clock.advance(to: .seconds(2))
    sut.record(quote("2", at: quoteTime + 2))
    await clock.advance(to: .seconds(3))
    sut.record(quote("2", at: quoteTime + 3))

    sut.flush()
    sut.flush()

    #expect(store.savedQuotes == [quote("1", at: quoteTime), quote("2", at: quoteTime + 3)])
    sut.flush()
    #expect(store.savedQuotes.count == 2, "the store holds the newest: nothing more is owed")
  }

  @Test func flush_afterAnUnchangedPrice_refreshesItsTime() async {
    let store = PriceStoreSpy(stored: quote("5", at: quoteTime))
    let sut = PriceCache(store: store, clock: clock)
    _ = try? sut.load()
    sut.record(quote("5", at: quoteTime + 30))

    sut.flush()

    #expect(store.savedQuotes == [quote("5", at: quoteTime + 30)])
  }

  @Test func flush_writesNothingWhenNothingNewCame() throws {
    let store = PriceStoreSpy(stored: quote("5", at: quoteTime))
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
      sut.record(quote("\(tick + 1)", at: quoteTime + TimeInterval(tick)))
    }

    #expect(warnings.value == [.cacheNotSaved("disk full")])
    #expect(store.savedQuotes == [quote("11", at: quoteTime + 10)])
  }

}
