import BTCPriceCore
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// Each exchange's candles in the shapes docs/HISTORY.md cites: the docs' examples and the answers
/// recorded in `ccxt/ccxt`'s `ts/src/test/static/response/<exchange>.json` (`fetchOHLCV`), and
/// each exchange's error shapes. Every refused case ends as invalid data, so the chain asks the
/// next exchange, and nothing refused is ever drawn.
@Suite("Map the exchanges' candles", .hangLimit(.seconds(30)))
struct MapCandlePayloadsTests {
  static let fiveMinutes = Duration.seconds(300)
  static let hour = Duration.seconds(3_600)

  // MARK: Binance (rest-api.md "Kline/Candlestick data": times in ms as numbers, prices strings)

  let binanceUSD = PriceSourceDefinition.binance.markets[.usd]!

  @Test func binance_deliversExactPricesOldestFirst() throws {
    let body = """
      [[1795355700000,"68901.23000000","68950.00000000","68880.50000000","68940.00000001",\
      "12.50000000",1795355999999,"861000.10000000",120,"6.10000000","420000.50000000","0"],\
      [1795356000000,"68940.00000000","68990.10000000","68930.00000000","68985.99000000",\
      "10.10000000",1795356299999,"696000.20000000",98,"5.00000000","344000.10000000","0"]]
      """

    let candles = try BinanceCandles.map(
      response(body), pair: binanceUSD, period: Self.fiveMinutes)

    #expect(
      candles == [
        .at(1_795_355_700, "68901.23", "68950", "68880.5", "68940.00000001"),
        .at(1_795_356_000, "68940", "68990.1", "68930", "68985.99"),
      ])
  }

  @Test func binance_refusesPricesSentAsNumbers() {
    let body = #"[[1795355700000,68901.23,"68950","68880.5","68940","1",1795355999999]]"#

    expectInvalidData {
      try BinanceCandles.map(response(body), pair: binanceUSD, period: Self.fiveMinutes)
    }
  }

  @Test func binance_deliversHTTPStatusWithItsMessage() {
    #expect(throws: PriceSourceError.httpStatus(400, message: "Invalid interval.")) {
      try BinanceCandles.map(
        response(#"{"code":-1120,"msg":"Invalid interval."}"#, status: 400), pair: binanceUSD,
        period: Self.fiveMinutes)
    }
    #expect(throws: PriceSourceError.httpStatus(418, message: "Way too much request weight used")) {
      try BinanceCandles.map(
        response(#"{"code":-1003,"msg":"Way too much request weight used"}"#, status: 418),
        pair: binanceUSD, period: Self.fiveMinutes)
    }
  }

  // MARK: Coinbase Exchange (time in s, LOW, HIGH, open, close as JSON numbers, newest first)

  let coinbaseUSD = PriceSourceDefinition.coinbase.candles!.markets[.usd]!

  @Test func coinbase_readsLowHighOpenCloseNewestFirst_asTheirLiteralText() throws {
    // The second row is ccxt's recorded BTC candle (coinbaseexchange.json, fetchOHLCV); the first,
    // an hour later, carries the float noise Coinbase's numbers come with.
    let body = """
      [[1710331200,73300.10000000001,73500,73370.65,73480.25,2.1],\
      [1710327600,73241.5,73402.47,73243.33,73370.65,1.56794406]]
      """

    let candles = try CoinbaseCandles.map(response(body), pair: coinbaseUSD, period: Self.hour)

    #expect(
      candles == [
        .at(1_710_327_600, "73243.33", "73402.47", "73241.5", "73370.65"),
        .at(1_710_331_200, "73370.65", "73500", "73300.10000000001", "73480.25"),
      ])
  }

  @Test func coinbase_refusesPricesSentAsStrings() {
    let body = #"[[1710327600,"73241.5","73402.47","73243.33","73370.65","1.5"]]"#

    expectInvalidData {
      try CoinbaseCandles.map(response(body), pair: coinbaseUSD, period: Self.hour)
    }
  }

  @Test func coinbase_deliversHTTPStatusWithItsMessage() {
    #expect(throws: PriceSourceError.httpStatus(404, message: "NotFound")) {
      try CoinbaseCandles.map(
        response(#"{"message":"NotFound"}"#, status: 404), pair: coinbaseUSD, period: Self.hour)
    }
  }

  @Test func coinbase_refusesRowsOutOfItsNewestFirstOrder() {
    // Oldest first is not what Coinbase documents: reversed, it is out of order.
    let body = """
      [[1710327600,73241.5,73402.47,73243.33,73370.65,1.5],\
      [1710331200,73300.1,73500,73370.65,73480.25,2.1]]
      """

    expectInvalidData("comes after") {
      try CoinbaseCandles.map(response(body), pair: coinbaseUSD, period: Self.hour)
    }
  }

  // MARK: Kraken (time in s as a number, prices strings, the result under Kraken's pair name)

  /// ccxt's recorded answer (kraken.json, fetchOHLCV, BTC/USDT 1h), its first three candles, its
  /// last after a 44-hour gap, and `last` as a string.
  static let krakenRecorded = """
    {"error":[],"result":{"XBTUSDT":[\
    [1706626800,"43437.5","43593.7","43355.5","43361.1","43511.3","18.75430110",162],\
    [1706630400,"43366.3","43529.2","43234.2","43485.0","43435.3","12.51327406",126],\
    [1706634000,"43497.5","43594.6","43316.4","43409.5","43429.8","5.03074129",127],\
    [1706799600,"42633.7","42905.4","42545.2","42548.5","42817.6","75.60416795",612]],\
    "last":"1706796000"}}
    """
  let krakenUSDT = MarketPair(request: "XBTUSDT", answers: ["XBTUSDT"])

  @Test func kraken_deliversTheRecordedAnswerGapIncluded() throws {
    let candles = try KrakenCandles.map(
      response(Self.krakenRecorded), pair: krakenUSDT, period: Self.hour)

    #expect(candles.count == 4)
    #expect(candles[0] == .at(1_706_626_800, "43437.5", "43593.7", "43355.5", "43361.1"))
    #expect(candles[3] == .at(1_706_799_600, "42633.7", "42905.4", "42545.2", "42548.5"))
  }

  @Test func kraken_refusesAResultForAnotherPair() {
    expectInvalidData("pair XBTUSDT is not XBTUSD") {
      try KrakenCandles.map(
        response(Self.krakenRecorded), pair: PriceSourceDefinition.kraken.markets[.usd]!,
        period: Self.hour)
    }
  }

  @Test func kraken_deliversInvalidDataForAnErrorSentWithHTTP200() {
    #expect(throws: PriceSourceError.invalidData("Kraken error: EQuery:Unknown asset pair")) {
      try KrakenCandles.map(
        response(#"{"error":["EQuery:Unknown asset pair"]}"#), pair: krakenUSDT, period: Self.hour)
    }
  }

  @Test func kraken_deliversRateLimitedForARateLimitSaidInTheBody() {
    let expected = PriceSourceError.rateLimited(
      status: nil, retryAfter: nil, message: "EAPI:Rate limit exceeded")
    #expect(throws: expected) {
      try KrakenCandles.map(
        response(#"{"error":["EAPI:Rate limit exceeded"]}"#), pair: krakenUSDT, period: Self.hour)
    }
  }

  // MARK: Bitstamp (every field a string, whole prices without decimals, the pair named)

  /// ccxt's recorded answer (bitstamp.json, fetchOHLCV, BTC/USDT 1h).
  static let bitstampRecorded = """
    {"data":{"pair":"BTC/USDT","ohlc":[{"timestamp":"1710327600","open":"73241","high":"73293",\
    "low":"73240","close":"73285","volume":"0.01076655"}]}}
    """

  @Test func bitstamp_deliversTheRecordedAnswer() throws {
    let candles = try BitstampCandles.map(
      response(Self.bitstampRecorded), pair: MarketPair(request: "btcusdt", answers: []),
      period: Self.hour)

    #expect(candles == [.at(1_710_327_600, "73241", "73293", "73240", "73285")])
  }

  @Test func bitstamp_refusesAnAnswerForAnotherPair() {
    expectInvalidData("pair BTC/USDT is not BTC/USD") {
      try BitstampCandles.map(
        response(Self.bitstampRecorded), pair: PriceSourceDefinition.bitstamp.markets[.usd]!,
        period: Self.hour)
    }
  }

  @Test func bitstamp_deliversHTTPStatusWithItsReason() {
    let body = #"{"status":"error","reason":"Invalid currency pair.","code":"API0005"}"#

    #expect(throws: PriceSourceError.httpStatus(404, message: "Invalid currency pair.")) {
      try BitstampCandles.map(
        response(body, status: 404), pair: PriceSourceDefinition.bitstamp.markets[.usd]!,
        period: Self.hour)
    }
  }

  // MARK: OKX (every field a string, time in ms, newest first, `code` "0" or an error)

  let okxUSD = PriceSourceDefinition.okx.candles!.markets[.usd]!

  @Test func okx_deliversExactPricesNewestFirstTurnedOldestFirst() throws {
    let body = """
      {"code":"0","msg":"","data":[\
      ["1795356000000","68940","68990.1","68930","68985.99","10.1","696000.2","696000.2","0"],\
      ["1795355700000","68901.23","68950","68880.5","68940.00000001","12.5","861000.1",\
      "861000.1","1"]]}
      """

    let candles = try OKXCandles.map(response(body), pair: okxUSD, period: Self.fiveMinutes)

    #expect(
      candles == [
        .at(1_795_355_700, "68901.23", "68950", "68880.5", "68940.00000001"),
        .at(1_795_356_000, "68940", "68990.1", "68930", "68985.99"),
      ])
  }

  @Test func okx_refusesItsOwnDocumentationsExample_whichRepeatsATime() {
    // OKX v5 docs, "GET / Candlesticks history": both rows start at 1597026383085.
    let body = """
      {"code":"0","msg":"","data":[\
      ["1597026383085","3.721","3.743","3.677","3.708","8422410","22698348.04828491",\
      "12698348.04828491","1"],\
      ["1597026383085","3.731","3.799","3.494","3.72","24912403","67632347.24399722",\
      "37632347.24399722","1"]]}
      """

    expectInvalidData("two candles start at 1597026383") {
      try OKXCandles.map(response(body), pair: okxUSD, period: Self.fiveMinutes)
    }
  }

  @Test func okx_deliversInvalidDataForAnErrorCodeSentWithHTTP200() {
    let body = #"{"code":"51001","msg":"Instrument ID does not exist","data":[]}"#

    #expect(
      throws: PriceSourceError.invalidData("OKX error: code 51001: Instrument ID does not exist")
    ) {
      try OKXCandles.map(response(body), pair: okxUSD, period: Self.fiveMinutes)
    }
  }

  @Test func okx_deliversItsRateLimitAsSuch_withHTTP429OrWithout() {
    let body = #"{"code":"50011","msg":"Rate limit reached","data":[]}"#

    #expect(throws: PriceSourceError.httpStatus(429, message: "code 50011: Rate limit reached")) {
      try OKXCandles.map(response(body, status: 429), pair: okxUSD, period: Self.fiveMinutes)
    }
    #expect(
      throws: PriceSourceError.rateLimited(
        status: nil, retryAfter: nil, message: "code 50011: Rate limit reached")
    ) {
      try OKXCandles.map(response(body), pair: okxUSD, period: Self.fiveMinutes)
    }
  }

  // MARK: What no exchange's candles may be

  /// Binance-shaped rows: `[open time ms, open, high, low, close]`.
  @Test(arguments: [
    (#"[[1795355700000,"100","99","98","99.5"]]"#, "open 100 is outside"),
    (#"[[1795355700000,"99","99","98","99.5"]]"#, "close 99.5 is outside"),
    (#"[[1795355700000,"99","98","99","98.5"]]"#, "high 98 is below low 99"),
    (#"[[1795355700000,"0","1","0","1"]]"#, "open 0 is not positive"),
    (#"[[1795355700000,"1","1","-1","1"]]"#, "low -1 is not positive"),
    (#"[[1795356000000,"1","1","1","1"],[1795355700000,"1","1","1","1"]]"#, "comes after"),
    (#"[[1795355700000,"1","1","1","1"],[1795355700000,"1","1","1","1"]]"#, "two candles start"),
    (#"[[1795355700000,"1","1","1","1"],[1795355760000,"1","1","1","1"]]"#, "less than 5 min"),
    ("[]", "no candles"),
    (#"[[1795355700000,"1","1","1"]]"#, "fewer than 5 fields"),
    (#"[[1795355700000.5,"1","1","1","1"]]"#, "is not a time"),
    (#"[[-1795355700000,"1","1","1","1"]]"#, "is not a time"),
    (#"[["1795355700000","1","1","1","1"]]"#, "is not a time"),
    (#"[[1795355700000,"1.2.3","1","1","1"]]"#, "is not a number"),
    (#"{"klines":[]}"#, "is not an array"),
  ])
  func anImpossibleOrDisorderedSeries_isRefusedSayingWhy(body: String, reason: String) {
    expectInvalidData(reason) {
      try BinanceCandles.map(response(body), pair: binanceUSD, period: Self.fiveMinutes)
    }
  }

  /// A time is a whole number of at most 16 digits (leading zeros count), before the year 3000.
  @Test(arguments: [
    ("0", 0), ("0001795355700000", 1_795_355_700),
  ])
  func aCandleTime_ofOneToSixteenDigits_isRead(text: String, seconds: Int) throws {
    let body = #"{"code":"0","msg":"","data":[["\#(text)","1","1","1","1","1","1","1","1"]]}"#

    let candles = try OKXCandles.map(response(body), pair: okxUSD, period: Self.fiveMinutes)

    #expect(candles.map(\.start) == [Date(timeIntervalSince1970: TimeInterval(seconds))])
  }

  @Test func aCandleTime_ofSeventeenDigits_isRefused() {
    let body =
      #"{"code":"0","msg":"","data":[["00001795355700000","1","1","1","1","1","1","1","1"]]}"#

    expectInvalidData("is not a time") {
      try OKXCandles.map(response(body), pair: okxUSD, period: Self.fiveMinutes)
    }
  }

  @Test func aCandleTime_isReadUpToTheYear3000_andRefusedFromIt() throws {
    let lastSecond = try CoinbaseCandles.map(
      response("[[32503679999,1,1,1,1,1]]"), pair: coinbaseUSD, period: Self.hour)
    #expect(lastSecond.map(\.start) == [Date(timeIntervalSince1970: 32_503_679_999)])

    expectInvalidData("candle time 32503680000 is not a time") {
      try CoinbaseCandles.map(
        response("[[32503680000,1,1,1,1,1]]"), pair: coinbaseUSD, period: Self.hour)
    }
  }

  @Test func aPageThatIsNotJSON_isInvalidData() {
    expectInvalidData("malformed JSON") {
      try CoinbaseCandles.map(
        response("<html>Cloudflare</html>"), pair: coinbaseUSD, period: Self.hour)
    }
  }

  // MARK: Helpers

  private func response(_ body: String, status: Int = 200) -> BTCHTTPResponse {
    BTCHTTPResponse(status: status, body: Data(body.utf8))
  }

  private func expectInvalidData(
    _ reason: String = "", sourceLocation: SourceLocation = #_sourceLocation,
    _ map: () throws -> [Candle]
  ) {
    #expect(sourceLocation: sourceLocation) {
      try map()
    } throws: { error in
      guard case .invalidData(let text) = error as? PriceSourceError else { return false }
      return reason.isEmpty || text.contains(reason)
    }
  }
}
