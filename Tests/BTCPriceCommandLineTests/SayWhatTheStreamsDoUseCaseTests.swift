import BTCPriceCommandLine
import BTCPriceCore
import BTCPricePipeline
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// `--verbose`'s words for what the streams did, and the one warning that comes without it.
@Suite("Say what the streams do", .hangLimit(.seconds(30)))
struct SayWhatTheStreamsDoUseCaseTests {
  typealias Report = PricePipeline.StreamReport

  static let url = URL(string: "wss://data-stream.binance.vision/ws/btcusdt@trade")!

  @Test(arguments: [
    (
      Report.connection(.connecting(.binance, url)),
      "debug binance stream: connecting to wss://data-stream.binance.vision/ws/btcusdt@trade"
    ),
    (Report.connection(.connected(.binance)), "info binance stream: connected"),
    (
      Report.connection(.closed(.coinbase, .silent(after: .seconds(5)))),
      "notice coinbase stream: closed, \(PriceStreamError.silent(after: .seconds(5)))"
    ),
    (
      Report.connection(.backingOff(.kraken, .milliseconds(1500))),
      "info kraken stream: reconnecting in 2 s"
    ),
    (
      Report.connection(.resting(.binance, .seconds(3600), .httpStatus(451, message: nil))),
      "notice binance stream: refused (\(PriceSourceError.httpStatus(451, message: nil))); not "
        + "reconnecting for 60 min"
    ),
    (
      Report.connection(.handingOver(.binance)),
      "info binance stream: handing over to a new connection"
    ),
    (
      Report.connection(.standingIn(.kraken, for: [.binance])),
      "notice kraken stream: standing in while binance rests, so two streams still check each "
        + "other"
    ),
    (
      Report.connection(.standingDown(.kraken)),
      "info kraken stream: closed, the stream it stood in for delivers again"
    ),
    (
      Report.tick(.fellBackToREST(silent: [.binance, .coinbase])),
      "notice no stream alive (binance, coinbase silent or down): falling back to REST"
    ),
    (
      Report.tick(.usedNextStream(.coinbase, insteadOf: .binance)),
      "notice no fresh price from the binance stream: price from the coinbase stream"
    ),
    (
      Report.tick(.heldBack(.binance)),
      "notice binance stream held back: two sources outvoted it and no other stream is alive to "
        + "check it"
    ),
    (
      Report.tick(.trustedAgain(.binance)),
      "info binance stream agrees with another source again: its price may be shown"
    ),
    (
      Report.tick(.priceFrom(.stream(.binance), quote("68901.23"))),
      "debug price 68901.23 from the binance stream"
    ),
    (
      Report.tick(.priceFrom(.rest, quote("68880.55", source: .coinbase))),
      "debug price 68880.55 from coinbase over REST"
    ),
  ])
  func eachReport_hasItsVerboseLine(_ report: Report, line: String) throws {
    let text = try #require(StreamLine.text(report))

    #expect("\(text.level) \(text.text)" == line)
  }

  @Test func aRefusalThatRestsOnlyTheStream_isWarnedWithoutVerbose() {
    #expect(
      StreamLine.warning(
        .connection(.resting(.binance, .seconds(60), .httpStatus(403, message: nil))))
        == "the binance stream was refused (\(PriceSourceError.httpStatus(403, message: nil))); "
        + "not opening it again for 60 s, prices come over REST meanwhile (btc-price doctor says "
        + "more)")
    #expect(
      StreamLine.warning(
        .connection(.resting(.binance, .seconds(60), .httpStatus(451, message: nil)))) == nil,
      "a region block rests REST too, whose warning says it")
    #expect(StreamLine.warning(.connection(.connected(.binance))) == nil)
  }
}
