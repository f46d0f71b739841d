import BTCPriceCore
import BTCPriceRuntime
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Fire alerts once per crossing", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct FireAlertsOnceUseCaseTests {
  let runStarted = Date(timeIntervalSince1970: 1_795_356_185)
  /// When this run's ticks received their quotes unless a test says otherwise.
  var tickTime: Date { runStarted.addingTimeInterval(1) }

  // MARK: above and below

  @Test func above_firesOnceWhenThePriceCrossesIt() {
    let (sut, _, _) = makeSUT(["above:100000"])

    #expect(fire(sut, "99990").isEmpty)
    let alerts = fire(sut, "100000.01")
    #expect(fire(sut, "100200").isEmpty, "still above: the same crossing")

    #expect(alerts.map(\.rule.description) == ["above:100000"])
    #expect(alerts.first?.direction == .up)
    #expect(alerts.first?.reference == 100_000)
    #expect(alerts.first?.quote.value == Decimal(string: "100000.01"))
  }

  @Test func below_firesOnceWhenThePriceCrossesIt() {
    let (sut, _, _) = makeSUT(["below:90000"])

    #expect(fire(sut, "90000").isEmpty, "at the threshold is not below it")
    #expect(fire(sut, "89999.99").map(\.direction) == [.down])
    #expect(fire(sut, "89000").isEmpty)
  }

  @Test func aPriceHoveringAroundTheThreshold_firesOnlyOnce() {
    let (sut, _, _) = makeSUT(["above:100000"])
    var fired = 0

    for price in ["99950", "100010", "99980", "100020", "99700", "100050", "99501"] {
      fired += fire(sut, price).count
    }

    #expect(fired == 1, "the price never went back 0.5 % (to 99,500) below the threshold")
  }

  @Test func aThresholdRule_reArmsOnlyPastTheMargin() {
    let (sut, _, _) = makeSUT(["above:100000", "below:90000"])

    _ = fire(sut, "99000")
    _ = fire(sut, "91000")
    #expect(fire(sut, "100001").count == 1)
    #expect(fire(sut, "89999").count == 1)
    #expect(fire(sut, "90449.99").isEmpty, "below: re-arms at 90,450 (0.5 % above)")
    #expect(fire(sut, "90450").isEmpty)
    #expect(fire(sut, "89999").count == 1)
    #expect(fire(sut, "100001").count == 1, "above re-armed when the price fell to 89,999")
  }

  @Test func aPriceAlreadyPastTheThreshold_doesNotFireUntilItCrossesAgain() {
    let (sut, _, _) = makeSUT(["above:100000"])

    #expect(fire(sut, "101000").isEmpty)
    #expect(fire(sut, "99400").isEmpty)
    #expect(fire(sut, "100001").count == 1)
  }

  @Test func above_atExactlyTheThreshold_doesNotFire() {
    let (sut, _, _) = makeSUT(["above:100000"])

    _ = fire(sut, "99000")
    #expect(fire(sut, "100000").isEmpty, "at the threshold is not above it")
    #expect(fire(sut, "100000.01").map(\.direction) == [.up])
  }

  @Test func above_reArmsAtExactlyTheMargin() {
    let (sut, _, _) = makeSUT(["above:100000"])

    _ = fire(sut, "99000")
    #expect(fire(sut, "100001").count == 1)
    _ = fire(sut, "99500")

    #expect(fire(sut, "100001").count == 1, "99,500 is 0.5 % below 100,000: the rule re-armed")
  }

  @Test func below_doesNotReArmShortOfTheMargin() {
    let (sut, _, _) = makeSUT(["below:90000"])

    _ = fire(sut, "91000")
    #expect(fire(sut, "89999").count == 1)
    _ = fire(sut, "90449.99")

    #expect(fire(sut, "89999").isEmpty, "90,449.99 is short of 90,450 (0.5 % above 90,000)")
  }

  @Test func aPriceReceivedAtTheRunsFirstInstant_counts() {
    let (sut, _, _) = makeSUT(["above:100000"])

    _ = sut.evaluate(.fresh(quote("99000", at: runStarted)))

    #expect(sut.evaluate(.fresh(quote("100001", at: runStarted))).count == 1)
  }

  // MARK: move

  @Test func move_firesOnARiseWithinTheWindow() async {
    let (sut, clock, _) = makeSUT(["move:2%/15m"])

    #expect(fire(sut, "100000").isEmpty)
    await clock.advance(to: .seconds(600))
    #expect(fire(sut, "101000").isEmpty)
    await clock.advance(to: .seconds(899))
    let alerts = fire(sut, "102000")

    #expect(alerts.map(\.direction) == [.up])
    #expect(alerts.first?.reference == 100_000)
  }

  @Test func move_firesOnAFallFromTheWindowsHigh() async {
    let (sut, clock, _) = makeSUT(["move:2%/15m"])

    _ = fire(sut, "100000")
    await clock.advance(to: .seconds(60))
    _ = fire(sut, "101000")
    await clock.advance(to: .seconds(120))
    let alerts = fire(sut, "98980")

    #expect(alerts.map(\.direction) == [.down])
    #expect(alerts.first?.reference == 101_000)
  }

  @Test func move_ignoresAMoveSlowerThanTheWindow() async {
    let (sut, clock, _) = makeSUT(["move:2%/15m"])

    _ = fire(sut, "100000")
    await clock.advance(to: .seconds(600))
    _ = fire(sut, "101000")
    await clock.advance(to: .seconds(901))

    #expect(fire(sut, "102000").isEmpty, "100,000 left the window a second ago")
  }

  @Test func move_firesOncePerMoveAndThenWatchesFromThere() async {
    let (sut, clock, _) = makeSUT(["move:2%/15m"])

    _ = fire(sut, "100000")
    await clock.advance(to: .seconds(10))
    #expect(fire(sut, "102000").count == 1)
    await clock.advance(to: .seconds(20))
    #expect(fire(sut, "102500").isEmpty, "2.5 % above 100,000, but the move already fired")
    await clock.advance(to: .seconds(30))
    #expect(fire(sut, "104040").count == 1, "2 % above 102,000")
  }

  @Test func move_doesNotFireShortOfThePercentage() async {
    let (rising, _, _) = makeSUT(["move:2%/15m"])
    let (falling, _, _) = makeSUT(["move:2%/15m"])

    _ = fire(rising, "100000")
    _ = fire(falling, "100000")

    #expect(fire(rising, "101990").isEmpty, "1.99 % above the low")
    #expect(fire(falling, "98010").isEmpty, "1.99 % below the high")
  }

  @Test func move_firesOnAFallOfExactlyThePercentage_andThenWatchesFromThere() async {
    let (sut, clock, _) = makeSUT(["move:2%/15m"])
    let (other, otherClock, _) = makeSUT(["move:2%/15m"])

    for (engine, time) in [(sut, clock), (other, otherClock)] {
      _ = fire(engine, "100000")
      await time.advance(to: .seconds(10))
      let alerts = fire(engine, "98000")
      #expect(alerts.map(\.direction) == [.down])
      #expect(alerts.first?.reference == 100_000)
      await time.advance(to: .seconds(20))
    }

    #expect(fire(sut, "97990").isEmpty, "the fall already fired; the window starts at 98,000")
    #expect(fire(other, "98500").isEmpty)
    await otherClock.advance(to: .seconds(30))
    #expect(fire(other, "99960").map(\.direction) == [.up], "2 % above 98,000, the alert's price")
  }

  @Test func move_countsAPriceExactlyAWindowOld() async {
    let (rising, risingClock, _) = makeSUT(["move:2%/15m"])
    let (falling, fallingClock, _) = makeSUT(["move:2%/15m"])

    _ = fire(rising, "100000")
    _ = fire(falling, "100000")
    await risingClock.advance(to: .seconds(900))
    await fallingClock.advance(to: .seconds(900))

    #expect(fire(rising, "102000").map(\.direction) == [.up], "100,000 is 15 minutes old: in")
    #expect(fire(falling, "98000").map(\.direction) == [.down], "100,000 is 15 minutes old: in")
  }

  @Test func move_forgetsAHighOlderThanTheWindow() async {
    let (sut, clock, _) = makeSUT(["move:2%/15m"])

    _ = fire(sut, "100000")
    await clock.advance(to: .seconds(901))

    #expect(fire(sut, "98000").isEmpty, "100,000 left the window a second ago")
  }

  // MARK: prices that cannot be trusted

  @Test func staleTicks_fireNothingAndArmNothing() {
    let (sut, _, _) = makeSUT(["above:100000"])

    _ = fire(sut, "99000")
    #expect(
      sut.evaluate(.stale(lastKnown: quote("101000", at: tickTime), failure: failure)).isEmpty)
    _ = fire(sut, "101000")
    #expect(sut.evaluate(.stale(lastKnown: quote("99000", at: tickTime), failure: failure)).isEmpty)

    #expect(fire(sut, "101000").isEmpty, "the stale 99,000 did not re-arm the rule")
  }

  @Test func aFirstFreshPriceAfterStaleTicks_firesTheCrossingItShows() {
    let (sut, _, _) = makeSUT(["above:100000"])

    _ = fire(sut, "99000")
    _ = sut.evaluate(.stale(lastKnown: quote("99000", at: tickTime), failure: failure))

    #expect(fire(sut, "101000").count == 1)
  }

  @Test func aPriceFromAnEarlierRun_firesNothing() {
    let (sut, _, store) = makeSUT(["above:100000"], stored: ["above:100000 USD": .armed])

    let cached = quote("101000", at: runStarted.addingTimeInterval(-5))

    #expect(sut.evaluate(.fresh(cached)).isEmpty, "--max-age shows a cached quote as fresh")
    #expect(sut.evaluate(.stale(lastKnown: cached, failure: failure)).isEmpty)
    #expect(store.saves.isEmpty)
  }

  @Test func aTickWhoseCrossCheckRejectedAPrice_isJudgedOnTheMajoritysPriceAlone() async {
    let (sut, clock, _) = makeSUT(["above:100000", "move:2%/15m"])
    let rejected = quote("103000", at: tickTime)
    let shown = quote("99100", at: tickTime)

    _ = fire(sut, "99000")
    #expect(
      sut.evaluate(
        .fresh(shown, crossCheck: .settled(shown, rejected: rejected, referee: .kraken))
      ).isEmpty)
    await clock.advance(to: .seconds(5))

    #expect(fire(sut, "99500").isEmpty, "the rejected 103,000 is not the window's high")
    #expect(fire(sut, "100001").count == 1, "and it did not fire the threshold")
  }

  @Test func aPriceInAnotherCurrency_firesNothing() {
    let (sut, _, _) = makeSUT(["above:100000"])

    _ = fire(sut, "99000")
    let euros = PriceQuote(
      value: 101_000, currency: "EUR", timestamp: runStarted.addingTimeInterval(1),
      source: .binance)

    #expect(sut.evaluate(.fresh(euros)).isEmpty)
  }

  // MARK: across runs

  @Test func aRestart_doesNotFireAgainForACrossingThatFired() {
    let store = InMemoryAlertStateStore()
    let (first, _, _) = makeSUT(["above:100000"], store: store)
    _ = fire(first, "99000")
    #expect(fire(first, "100500").count == 1)

    let (second, _, _) = makeSUT(["above:100000"], store: store)

    #expect(fire(second, "100600").isEmpty)
  }

  @Test func aCrossingBetweenTwoRuns_firesInTheSecond() {
    let store = InMemoryAlertStateStore()
    let (first, _, _) = makeSUT(["below:90000"], store: store)
    _ = fire(first, "91000")

    let (second, _, _) = makeSUT(["below:90000"], store: store)

    #expect(fire(second, "89000").count == 1, "status bars run --once every few seconds")
  }

  @Test func theState_isWrittenOnlyWhenARuleChangesSides() {
    let (sut, _, store) = makeSUT(["above:100000"], stored: ["below:1 EUR": .armed])

    for price in ["99000", "99100", "100001", "100100", "99400", "99300"] {
      _ = fire(sut, price)
    }

    #expect(
      store.saves == [
        ["above:100000 USD": .armed, "below:1 EUR": .armed],
        ["above:100000 USD": .fired, "below:1 EUR": .armed],
        ["above:100000 USD": .armed, "below:1 EUR": .armed],
      ], "other runs' rules are kept")
  }

  @Test func anUnreadableStore_isOneWarningAndAFreshStart() {
    let warnings = Locked<[String]>([])
    let store = InMemoryAlertStateStore(loadError: "cannot read alerts.json")
    let (sut, _, _) = makeSUT(["above:100000"], store: store) { warnings.append($0) }

    #expect(fire(sut, "101000").isEmpty)
    #expect(warnings.value == ["cannot read alerts.json; alerts start from the next price"])
  }

  @Test func anUnwritableStore_warnsAndStillFires() {
    let warnings = Locked<[String]>([])
    let store = InMemoryAlertStateStore(saveError: "disk full")
    let (sut, _, _) = makeSUT(["above:100000"], store: store) { warnings.append($0) }

    _ = fire(sut, "99000")

    #expect(fire(sut, "101000").count == 1)
    #expect(warnings.value == ["disk full", "disk full"])
  }

  // MARK: helpers

  private let failure = PriceFetchFailure(failures: [])

  private func makeSUT(
    _ rules: [String], stored: [String: AlertArming] = [:], store: InMemoryAlertStateStore? = nil,
    warn: @escaping @Sendable (String) -> Void = { _ in }
  ) -> (AlertEngine, SteppedTestClock, InMemoryAlertStateStore) {
    let clock = SteppedTestClock()
    let store = store ?? InMemoryAlertStateStore(stored: stored)
    let sut = AlertEngine(
      rules: rules.map { try! AlertRule.parse($0) }, currency: "USD", clock: clock,
      runStarted: runStarted, store: store, warn: warn)
    sut.restore()
    return (sut, clock, store)
  }

  private func fire(_ sut: AlertEngine, _ value: String) -> [PriceAlert] {
    sut.evaluate(.fresh(quote(value, at: tickTime)))
  }
}
