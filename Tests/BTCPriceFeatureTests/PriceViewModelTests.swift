import BTCPriceCore
import BTCPriceFeature
import BTCPriceRuntime
import BTCPriceTestSupport
import Foundation
import Observation
import Testing

@Suite("Price screen view model", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
@MainActor
struct PriceViewModelTests {
  let clock = SteppedTestClock()
  /// 2026-11-22 14:03:05 UTC
  let cached = quote("68901.23", at: Date(timeIntervalSince1970: 1_795_356_185))
  let banner = "Failed to update value. Displaying last updated value from"

  // Each tick starts two sleeps on the clock: the source's deadline, then the wait for the next
  // slot. So tick n has finished once 2(n + 1) sleeps have started.

  @Test func run_showsCachedValueImmediatelyWithoutBanner() async {
    let (sut, running) = start(cache: cached, ScriptedLoader(.hang))

    await waitOnMainActor(until: { sut.priceText == "$68,901.23" })

    #expect(sut.lastUpdatedText == "Last updated Nov 22, 14:03")
    #expect(sut.bannerText == nil)
    #expect(sut.isStale == false)
    #expect(sut.sourceName == "Binance")
    await stop(running)
  }

  @Test func init_showsPlaceholdersBeforeAnythingIsKnown() {
    let sut = makeSUT(ScriptedLoader(.hang))

    #expect(sut.priceText == "-")
    #expect(sut.lastUpdatedText == "Last updated -")
    #expect(sut.bannerText == nil)
    #expect(sut.accessibilityLabel == "Bitcoin price unavailable")
  }

  @Test func failedTickWithoutAnyValue_showsPlaceholdersAndBanner() async {
    let (sut, running) = start(ScriptedLoader(.fail(.httpStatus(500, message: nil))))

    await waitOnMainActor(until: { sut.bannerText != nil })

    #expect(sut.priceText == "-")
    #expect(sut.lastUpdatedText == "Last updated -")
    #expect(sut.bannerText == "\(banner) -")
    #expect(sut.isStale)
    await stop(running)
  }

  @Test func run_rendersEachTick() async {
    let loader = ScriptedLoader(
      .answer(quote("114700.00")), .answer(quote("114702.50")),
      .answer(quote("114721.34000000")))
    let (sut, running) = start(loader)

    for (second, price) in ["$114,700.00", "$114,702.50", "$114,721.34"].enumerated() {
      if second > 0 { await clock.advance(to: .seconds(second), afterSleeps: 2 * second) }
      await waitOnMainActor(
        until: { sut.priceText == price }, "tick \(second) never showed \(price)")
    }

    await stop(running)
  }

  @Test func failedTick_showsCachedValueAndItsTimeWithBanner() async {
    let (sut, running) = start(cache: cached, ScriptedLoader(.fail(.timedOut(after: .zero))))

    await waitOnMainActor(until: { sut.bannerText != nil })

    #expect(sut.priceText == "$68,901.23")
    #expect(sut.lastUpdatedText == "Last updated Nov 22, 14:03")
    #expect(sut.bannerText == "\(banner) Nov 22, 14:03")
    #expect(sut.isStale)
    await stop(running)
  }

  @Test func successAfterFailure_hidesTheBanner() async {
    let fresh = quote("68950.00", at: Date(timeIntervalSince1970: 1_795_356_245))
    let loader = ScriptedLoader(.fail(.httpStatus(503, message: nil)), .answer(fresh))
    let (sut, running) = start(cache: cached, loader)
    await waitOnMainActor(until: { sut.bannerText != nil })

    await clock.advance(to: .seconds(1), afterSleeps: 2)
    await waitOnMainActor(until: { sut.bannerText == nil })

    #expect(sut.priceText == "$68,950.00")
    #expect(sut.lastUpdatedText == "Last updated Nov 22, 14:04")
    #expect(sut.isStale == false)
    await stop(running)
  }

  @Test func tickRepeatingTheShownValue_notifiesNoObserver() async {
    // Same price, 20 s later: still Nov 22, 14:03.
    let loader = ScriptedLoader(
      .answer(cached), .answer(quote("68901.23", at: Date(timeIntervalSince1970: 1_795_356_205))),
      .answer(quote("68902.00")))
    let (sut, running) = start(loader)
    await waitOnMainActor(until: { sut.priceText == "$68,901.23" })
    let changes = observeChanges(of: sut)

    await clock.advance(to: .seconds(1), afterSleeps: 2)
    await waitOnMainActor(until: { clock.sleepsStarted >= 4 }, "the second tick never finished")
    let changedByRepeat = changes.value
    await clock.advance(to: .seconds(2), afterSleeps: 4)
    await waitOnMainActor(until: { sut.priceText == "$68,902.00" })

    #expect(changedByRepeat == false)
    #expect(changes.value, "a new value does notify, so the check above can fail")
    await stop(running)
  }

  @Test func accessibilityLabel_readsThePriceInWordsWithItsTime() async {
    let (sut, running) = start(cache: cached, ScriptedLoader(.hang))

    await waitOnMainActor(until: { sut.priceText == "$68,901.23" })

    #expect(
      sut.accessibilityLabel
        == "Bitcoin price 68,901 dollars 23 cents, last updated Nov 22, 14:03")
    await stop(running)
  }

  @Test func timeZoneChange_showsTheNewZoneFromTheNextTickOn() async {
    let zone = Locked(TimeZone(identifier: "UTC")!)
    let loader = ScriptedLoader(.answer(cached))
    let sut = makeSUT(loader, timeZone: { zone.value })
    let running = Task { await sut.run() }
    await waitOnMainActor(until: { sut.lastUpdatedText == "Last updated Nov 22, 14:03" })

    zone.withValue { $0 = TimeZone(identifier: "Asia/Tokyo")! }
    await clock.advance(to: .seconds(1), afterSleeps: 2)
    await waitOnMainActor(until: { sut.lastUpdatedText == "Last updated Nov 22, 23:03" })

    #expect(sut.accessibilityLabel.hasSuffix("last updated Nov 22, 23:03"))
    await stop(running)
  }

  /// Every fresh value is saved at once today; a failed save is what leaves one unsaved.
  @Test func goingToTheBackground_savesTheShownValueWhoseSaveFailed() async {
    let store = InMemoryPriceStore(saveError: "disk full", failingSaves: 1)
    let (sut, running) = start(ScriptedLoader(.answer(cached)), store: store)
    await waitOnMainActor(until: { sut.priceText == "$68,901.23" })
    #expect(store.savedQuotes.isEmpty)

    sut.phaseDidChange(to: .background)

    await waitOnMainActor(until: { store.savedQuotes == [cached] }, "the value was never saved")
    await stop(running)
  }

  @Test func bannerAppearing_isAnnouncedOnceAndTheLabelSaysTheValueIsStale() async {
    let loader = ScriptedLoader(
      .fail(.httpStatus(500, message: nil)), .fail(.httpStatus(500, message: nil)))
    let (sut, running) = start(cache: cached, loader)
    await waitOnMainActor(until: { sut.bannerText != nil })

    #expect(sut.announcement?.sequence == 1)
    #expect(sut.announcement?.text.hasPrefix("Failed to update the Bitcoin price.") == true)
    #expect(sut.accessibilityLabel.hasSuffix("not up to date: the latest update failed"))

    await clock.advance(to: .seconds(1), afterSleeps: 2)
    await waitOnMainActor(until: { loader.calls.count == 2 })
    #expect(sut.announcement?.sequence == 1, "a banner that stays is not announced again")
    await stop(running)
  }

  @Test func secondTick_showsTheChangeSinceTheLastTickAndASparkline() async {
    let loader = ScriptedLoader(.answer(quote("68000.00")), .answer(quote("68012.34")))
    let (sut, running) = start(loader)
    await waitOnMainActor(until: { sut.priceText == "$68,000.00" })
    #expect(sut.changeText == nil)
    #expect(sut.sparklineHeights.isEmpty)

    await clock.advance(to: .seconds(1), afterSleeps: 2)
    await waitOnMainActor(until: { sut.priceText == "$68,012.34" })

    #expect(sut.changeText == "▲ +$12.34 (+0.02%)")
    #expect(sut.changeDirection == .up)
    #expect(sut.changeAccessibilityLabel == "up 12 dollars 34 cents since the last tick")
    #expect(sut.sparklineHeights == [0, 1])
    #expect(sut.rangeText == "low $68,000.00  high $68,012.34")
    await stop(running)
  }

  @Test func goingToTheBackground_savesInsideABackgroundTask() async {
    let spy = BackgroundTaskSpy()
    let store = InMemoryPriceStore(saveError: "disk full", failingSaves: 1)
    let sut = makeSUT(ScriptedLoader(.answer(cached)), store: store, backgroundTask: spy.hooks)
    let running = Task { await sut.run() }
    await waitOnMainActor(until: { sut.priceText == "$68,901.23" })

    sut.phaseDidChange(to: .background)

    await waitOnMainActor(until: { spy.events.value.count == 2 }, "the assertion never ended")
    #expect(spy.events.value == ["begin Save the last Bitcoin price", "end 1"])
    #expect(store.savedQuotes == [cached], "the save ran before the assertion ended")
    await stop(running)
  }

  @Test func becomingInactive_keepsTicking() async {
    // Inactive is Control Center or a call's banner over a screen that is still visible: the
    // price goes on; only the background stops the ticks.
    let (sut, running) = start(
      ScriptedLoader(.answer(quote("68901.00")), .answer(quote("68902.50"))))
    await waitOnMainActor(until: { sut.priceText == "$68,901.00" })

    sut.phaseDidChange(to: .inactive)
    await clock.advance(to: .seconds(1), afterSleeps: 2)

    await waitOnMainActor(
      until: { sut.priceText == "$68,902.50" }, "the tick after becoming inactive never came")
    await stop(running)
  }

  @Test func leavingTheScreen_stopsTicking() async {
    let loader = ScriptedLoader(.answer(cached))
    let (sut, running) = start(loader)
    await waitOnMainActor(until: { sut.priceText == "$68,901.23" })

    await stop(running)
    await clock.advance(to: .seconds(10))

    #expect(loader.calls.count == 1)
  }

  // MARK: - Helpers

  private func makeSUT(
    cache: PriceQuote? = nil, _ loader: ScriptedLoader, store: (any PriceStore)? = nil,
    timeZone: @escaping @Sendable () -> TimeZone = { TimeZone(identifier: "UTC")! },
    backgroundTask: BackgroundTaskHooks = .none
  ) -> PriceViewModel {
    let chain = PriceSourceChain([.init(source: .binance, loader: loader)], clock: clock)
    return PriceViewModel(
      feed: PriceFeed(
        chain: chain,
        cache: PriceCache(store: store ?? InMemoryPriceStore(stored: cache), clock: clock)),
      clock: clock,
      timeZone: timeZone,
      backgroundTask: backgroundTask)
  }

  private func start(
    cache: PriceQuote? = nil, _ loader: ScriptedLoader, store: (any PriceStore)? = nil
  ) -> (PriceViewModel, Task<Void, Never>) {
    let sut = makeSUT(cache: cache, loader, store: store)
    return (sut, Task { await sut.run() })
  }

  private func stop(_ running: Task<Void, Never>) async {
    running.cancel()
    await running.value
  }

  /// True once any property the screen shows has changed.
  private func observeChanges(of sut: PriceViewModel) -> Locked<Bool> {
    let changed = Locked(false)
    withObservationTracking {
      _ = (sut.priceText, sut.lastUpdatedText, sut.bannerText, sut.sourceName, sut.isStale)
      _ = sut.accessibilityLabel
    } onChange: {
      changed.withValue { $0 = true }
    }
    return changed
  }
}

/// A store that holds one quote in memory.

/// A store whose first save fails (a full disk, say); it records the saves that succeed.
