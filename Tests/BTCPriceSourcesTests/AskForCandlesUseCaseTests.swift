import BTCPriceCore
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// What each exchange is asked for each range (docs/HISTORY.md): one request, the range's
/// period or the longest the exchange has below it, enough candles to reach back over the range.
@Suite("Ask the exchanges for candles", .hangLimit(.seconds(30)))
struct AskForCandlesUseCaseTests {
  static let now = Date(timeIntervalSince1970: 1_795_356_000)

  @Test(arguments: [
    (
      "binance", ChartRange.day,
      "https://api.binance.com/api/v3/klines?symbol=BTCUSDT&interval=5m&limit=290"
    ),
    (
      "binance", .week, "https://api.binance.com/api/v3/klines?symbol=BTCUSDT&interval=1h&limit=170"
    ),
    (
      "binance", .month,
      "https://api.binance.com/api/v3/klines?symbol=BTCUSDT&interval=6h&limit=122"
    ),
    (
      "coinbase", .day, "https://api.exchange.coinbase.com/products/BTC-USD/candles?granularity=300"
    ),
    (
      "coinbase", .week,
      "https://api.exchange.coinbase.com/products/BTC-USD/candles?granularity=3600"
    ),
    (
      "coinbase", .month,
      "https://api.exchange.coinbase.com/products/BTC-USD/candles?granularity=21600"
    ),
    // Kraken sends its 720 most recent: `since` asks for the range alone.
    (
      "kraken", .day, "https://api.kraken.com/0/public/OHLC?pair=XBTUSD&interval=5&since=1795269000"
    ),
    (
      "kraken", .week,
      "https://api.kraken.com/0/public/OHLC?pair=XBTUSD&interval=60&since=1794744000"
    ),
    // No 6-hour candles at Kraken: 182 of 4 hours.
    (
      "kraken", .month,
      "https://api.kraken.com/0/public/OHLC?pair=XBTUSD&interval=240&since=1792735200"
    ),
    ("bitstamp", .day, "https://www.bitstamp.net/api/v2/ohlc/btcusd/?step=300&limit=290"),
    ("bitstamp", .month, "https://www.bitstamp.net/api/v2/ohlc/btcusd/?step=21600&limit=122"),
    ("okx", .day, "https://www.okx.com/api/v5/market/candles?instId=BTC-USDT&bar=5m&limit=290"),
    ("okx", .week, "https://www.okx.com/api/v5/market/candles?instId=BTC-USDT&bar=1H&limit=170"),
    // OKX's 6H opens on Hong Kong time; 6Hutc on the others' grid.
    (
      "okx", .month,
      "https://www.okx.com/api/v5/market/candles?instId=BTC-USDT&bar=6Hutc&limit=122"
    ),
  ])
  func eachRange_isOneRequestForItsPeriod(sourceID: String, range: ChartRange, url: String)
    throws
  {
    let request = try definition(sourceID).request(for: range, in: .usd, now: Self.now).request

    #expect(request.url.absoluteString == url)
  }

  @Test(arguments: [
    (
      "binance", Currency.eur,
      "https://api.binance.com/api/v3/klines?symbol=BTCEUR&interval=5m&limit=290"
    ),
    (
      "coinbase", .gbp, "https://api.exchange.coinbase.com/products/BTC-GBP/candles?granularity=300"
    ),
    (
      "kraken", .eur,
      "https://api.kraken.com/0/public/OHLC?pair=XBTEUR&interval=5&since=1795269000"
    ),
    ("bitstamp", .eur, "https://www.bitstamp.net/api/v2/ohlc/btceur/?step=300&limit=290"),
  ])
  func aCurrency_isAskedForInTheExchangesPairForIt(
    sourceID: String, currency: Currency, url: String
  ) throws {
    let request = try definition(sourceID).request(for: .day, in: currency, now: Self.now).request

    #expect(request.url.absoluteString == url)
  }

  @Test func anExchangeWithoutCandlesInTheCurrency_isNotAsked() {
    // Coinbase's spot price has every currency; its exchange trades BTC in USD, EUR and GBP.
    #expect(
      throws: PriceSourceDefinition.MarketError.notServed(sourceID: "coinbase", currency: .jpy)
    ) {
      try PriceSourceDefinition.coinbase.candles!.request(for: .day, in: .jpy, now: Self.now)
    }
    #expect(
      CandleSourceDefinition.serving(.eur).map(\.source.id) == [
        "binance", "coinbase", "kraken", "bitstamp",
      ])
    #expect(
      CandleSourceDefinition.serving(.usd).map(\.source.id) == [
        "binance", "coinbase", "kraken", "bitstamp", "okx",
      ])
  }

  @Test func theExchanges_areAskedInThePriceChainsOrder() {
    let candles = CandleSourceDefinition.all.map(\.source.id)

    #expect(candles == PriceSourceRegistry.all.map(\.source.id).filter(candles.contains))
    #expect(candles == ["binance", "coinbase", "kraken", "bitstamp", "okx"])
  }

  @Test func aUsersURL_isKeptWholeWithItsPairAndQuerySetForTheRange() throws {
    let base = URL(string: "http://127.0.0.1:8080/api/v3/klines?symbol=BTCUSDT&interval=1d&x=1")!

    let request = try PriceSourceDefinition.binance.candles!.request(
      for: .week, in: .eur, base: base, now: Self.now
    ).request

    #expect(
      request.url.absoluteString
        == "http://127.0.0.1:8080/api/v3/klines?symbol=BTCEUR&interval=1h&x=1&limit=170")
  }

  @Test func aRequest_saysWhoAsksAndTakesAnswersUpTo512KiB() throws {
    let request = try PriceSourceDefinition.kraken.candles!.request(
      for: .day, in: .usd, now: Self.now
    )
    .request

    #expect(request.header("User-Agent") == BTCPriceVersion.userAgent)
    #expect(request.maxBodySize == 512 * 1024)
  }

  @Test func eachExchange_drawsARangeFromItsLongestPeriodUpToTheRanges() {
    #expect(PriceSourceDefinition.kraken.candles!.period(for: .month) == .seconds(4 * 3_600))
    #expect(PriceSourceDefinition.coinbase.candles!.period(for: .month) == .seconds(6 * 3_600))
    for definition in CandleSourceDefinition.all {
      #expect(definition.period(for: .day) == .seconds(300), "\(definition.source.id)")
      #expect(definition.period(for: .week) == .seconds(3_600), "\(definition.source.id)")
    }
  }

  private func definition(_ id: String) -> CandleSourceDefinition {
    CandleSourceDefinition.all.first { $0.source.id == id }!
  }
}
