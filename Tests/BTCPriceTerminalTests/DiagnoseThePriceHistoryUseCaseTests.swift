import BTCPriceCore
import BTCPriceTerminal
import BTCPriceTestSupport
import Foundation
import Testing

/// `btc-price doctor` asks each exchange with candles for the day's once: the chart and the
/// 24-hour change come from there, and a user whose chart stays empty finds out why here.
@Suite("Diagnose the price history", .hangLimit(.seconds(30)))
struct DiagnoseThePriceHistoryUseCaseTests {
  let binance = DoctorHistoryCheck(
    source: "binance", url: "https://api.binance.com/api/v3/klines?symbol=BTCUSDT",
    route: "direct",
    outcome: .history(
      candles: 290, period: .seconds(300), newest: Date(timeIntervalSince1970: 1_795_355_700)),
    latency: .milliseconds(42))
  let coinbase = DoctorHistoryCheck(
    source: "coinbase", url: "https://api.exchange.coinbase.com/products/BTC-USD/candles",
    route: "through http://proxy:3128", outcome: .failed(.httpStatus(451, message: nil)),
    latency: .milliseconds(7))

  @Test func eachExchange_saysWhatCameOrWhy_inTheChainsOrder_withoutChangingTheExitStatus()
    throws
  {
    let report = DoctorReport(
      checks: [], history: [binance, coinbase], settings: [], files: [], limits: [])

    let text = report.text
    #expect(text.contains("Price history (the day's candles), each asked once:"))
    #expect(
      text.contains(
        """
          binance (https://api.binance.com/api/v3/klines?symbol=BTCUSDT), direct
            290 candles of 5 min, the newest from 2026-11-22T13:55:00Z in 42 ms
          coinbase (https://api.exchange.coinbase.com/products/BTC-USD/candles), through \
        http://proxy:3128
            failed: HTTP 451 in 7 ms
        """))
    #expect(report.exitStatus == 1, "no price: the history does not make up for it")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
    let history = try #require(object["history"] as? [[String: Any]])
    #expect(history.map { $0["source"] as? String } == ["binance", "coinbase"])
    #expect(history.first?["candles"] as? Int == 290)
    #expect(history.last?["candles"] == nil)
    #expect(history.last?["verdict"] as? String == "failed: HTTP 451")
  }

  @Test func anExchangeAnEarlierRunLimited_isNotAsked_andSaysHowLong() {
    let resting = DoctorHistoryCheck(
      source: "binance", url: "https://api.binance.com/x", route: "direct",
      outcome: .notAsked("resting for 2 min after HTTP 429 (an earlier run)"), latency: nil)

    #expect(
      DoctorReport(checks: [], history: [resting], settings: [], files: [], limits: []).text
        .contains("    not asked: resting for 2 min after HTTP 429 (an earlier run)\n"))
  }

  @Test func aHistoryTurnedOff_orNoExchangeWithCandles_isSaidInOneLine() throws {
    let off = DoctorReport(checks: [], history: nil, settings: [], files: [], limits: [])
    let none = DoctorReport(checks: [], history: [], settings: [], files: [], limits: [])

    #expect(off.text.contains("Price history: off (no-history)\n"))
    #expect(
      none.text.contains("Price history: no source of the chain has candles in this currency\n"))
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(off.json.utf8)) as? [String: Any])
    #expect(object["history"] == nil)
  }

  @Test func oneCandle_isSingular() {
    let check = DoctorHistoryCheck(
      source: "kraken", url: "u", route: "direct",
      outcome: .history(
        candles: 1, period: .seconds(3_600), newest: Date(timeIntervalSince1970: 0)),
      latency: nil)

    #expect(check.verdict == "1 candle of 60 min, the newest from 1970-01-01T00:00:00Z")
  }
}
