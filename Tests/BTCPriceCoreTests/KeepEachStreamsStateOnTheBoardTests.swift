import BTCPriceCore
import BTCPriceTestSupport
import Foundation
import Testing

/// `StreamPriceBoard`: what it keeps of each stream between ticks. A failure is kept (a first
/// tick stops waiting for a stream that failed, and a refusal sets the stream resting) until the
/// stream's next message, and the stream's last price stays through it; a stream closed on
/// purpose (the app in the background) has no failure to tell.
@Suite("Keep each stream's state on the board", .hangLimit(.seconds(30)))
struct KeepEachStreamsStateOnTheBoardTests {
  let clock = SteppedTestClock()

  @Test func aStreamsFailure_isKeptWithItsLastPrice_untilItsNextMessage() {
    let board = makeSUT()
    board.record(.trade(Decimal(string: "68901.23")!), from: .binance)
    let failure = PriceStreamError.handshakeFailed(status: 451, reason: "region")

    board.record(failure, from: .binance)

    #expect(board.entry(for: .binance).lastError == failure)
    #expect(board.entry(for: .binance).quote?.value == Decimal(string: "68901.23")!)
    #expect(board.entry(for: .coinbase).lastError == nil, "only that stream's")
    board.record(.alive, from: .binance)
    #expect(board.entry(for: .binance).lastError == nil)
  }

  @Test func aStreamClosedOnPurpose_hasNoFailureToTell_andIsNoLongerAlive() {
    let board = makeSUT()
    board.record(.trade(Decimal(string: "68901.23")!), from: .binance)
    board.markDown(.binance, because: .closed(code: 1006))
    #expect(board.entry(for: .binance).lastError == .closed(code: 1006))

    board.markClosed(.binance)

    #expect(board.entry(for: .binance).lastError == nil)
    let stream = StreamFirstPriceLoader.Stream(source: .binance, silenceBound: .seconds(5))
    #expect(stream.alivePrice(on: board) == nil)
  }

  private func makeSUT() -> StreamPriceBoard {
    StreamPriceBoard(clock: clock, now: { Date(timeIntervalSince1970: 1_795_356_185) })
  }
}
