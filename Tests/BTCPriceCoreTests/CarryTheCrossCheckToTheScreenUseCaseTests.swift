import BTCPriceCore
import BTCPriceTestSupport
import Foundation
import Testing

/// What the streams' cross-check decided leaves the loader on the tick's update, so every front
/// end can say it; the price it rejected never becomes the shown quote, the last known value, or
/// an alert.
@Suite(
  "Carry the cross-check's verdict to the screen", .timeLimit(.minutes(1)),
  .hangLimit(.seconds(30)))
struct CarryTheCrossCheckToTheScreenUseCaseTests {
  @Test func twoPrices_agreeUpToTwoPercentOfTheLower_whateverTheirSize() {
    let check = CrossCheck()

    #expect(check.agree(100, 102), "exactly 2 % apart")
    #expect(!check.agree(100, Decimal(string: "102.01")!))
    #expect(check.agree(Decimal(string: "0.5")!, Decimal(string: "0.51")!), "prices below 1")
    #expect(!check.agree(Decimal(string: "-0.5")!, Decimal(string: "-0.5")!), "no price below 0")
    #expect(!check.agree(0, 0))
  }

  @Test func update_showsTheMajoritysPrice_andNamesTheRejectedOneAndItsReferee() async throws {
    let (feed, board, _) = makeSUT()
    board.record(.trade(Decimal(string: "6890.12")!), from: .binance)
    board.record(.trade(Decimal(string: "68880.55")!), from: .coinbase)

    let update = try await feed.update(within: .milliseconds(800))

    let shown = quote("68880.55", source: .coinbase)
    #expect(
      update
        == .fresh(
          shown,
          crossCheck: .settled(
            shown, rejected: quote("6890.12", source: .binance), referee: .kraken)))
    #expect(await feed.lastKnown == shown)
  }

  @Test func update_carriesAnAgreementToo_soADisagreementCanBeSeenToEnd() async throws {
    let (feed, board, _) = makeSUT()
    board.record(.trade(Decimal(string: "68901.23")!), from: .binance)
    board.record(.trade(Decimal(string: "68880.55")!), from: .coinbase)

    let update = try await feed.update(within: .milliseconds(800))

    #expect(update.crossCheck == .agreed(quote("68901.23", source: .binance), with: .coinbase))
    #expect(update.crossCheck?.rejected == nil)
  }

  @Test func update_isStaleWithTheDisagreementInWords_whenNothingSettlesIt() async throws {
    let (feed, board, _) = makeSUT(referee: .failure(.unreachable("down")))
    board.record(.trade(Decimal(string: "6890.12")!), from: .binance)
    board.record(.trade(Decimal(string: "68880.55")!), from: .coinbase)

    let update = try await feed.update(within: .milliseconds(800))

    guard case .stale(let lastKnown, let failure) = update else {
      Issue.record("expected a failed tick, got \(update)")
      return
    }
    #expect(lastKnown == nil)
    #expect(
      update.crossCheck
        == .unsettled(
          quote("6890.12", source: .binance), quote("68880.55", source: .coinbase)))
    #expect(
      failure.description
        == "binance (6890.12) and coinbase (68880.55) disagree and no third source settled it, "
        + "so neither is shown")
  }

  @Test func anAlert_neverFiresOnAPriceTwoOthersContradict() async throws {
    let (feed, board, _) = makeSUT()
    let alerts = AlertEngine(
      rules: [try AlertRule.parse("below:10000"), try AlertRule.parse("above:68000")],
      currency: "USD", clock: SteppedTestClock(),
      runStarted: Date(timeIntervalSince1970: 1_795_356_000), store: nil)
    board.record(.trade(Decimal(string: "67000")!), from: .binance)
    board.record(.trade(Decimal(string: "67010")!), from: .coinbase)
    #expect(alerts.evaluate(try await feed.update(within: .milliseconds(800))).isEmpty)

    board.record(.trade(Decimal(string: "6890.12")!), from: .binance)
    board.record(.trade(Decimal(string: "68880.55")!), from: .coinbase)
    let fired = alerts.evaluate(try await feed.update(within: .milliseconds(800)))

    #expect(fired.map(\.rule.description) == ["above:68000"], "never below:10000")
    #expect(fired.first?.quote.value == Decimal(string: "68880.55"))
  }

  // MARK: Helpers

  private func makeSUT(
    referee: Result<PriceQuote, PriceSourceError> = .success(quote("68870.10", source: .kraken))
  ) -> (PriceFeed, StreamPriceBoard, SteppedTestClock) {
    let clock = SteppedTestClock()
    let board = StreamPriceBoard(
      clock: clock, now: { Date(timeIntervalSince1970: 1_795_356_185) })
    let rest = LoaderStub(clock: clock, result: .failure(.unreachable("down")))
    let loader = StreamFirstPriceLoader(
      board: board,
      streams: [
        .init(source: .binance, silenceBound: .seconds(5)),
        .init(source: .coinbase, silenceBound: .seconds(5)),
      ],
      chain: PriceSourceChain([.init(source: .kraken, loader: rest)], clock: clock),
      referee: PriceSourceChain(
        [.init(source: .kraken, loader: LoaderStub(clock: clock, result: referee))], clock: clock))
    return (PriceFeed(load: { try await loader.load(within: $0) }, cache: nil), board, clock)
  }
}
