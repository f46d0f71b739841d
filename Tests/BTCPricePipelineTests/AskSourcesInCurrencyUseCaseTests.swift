import BTCPriceCore
import BTCPricePipeline
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// Which source serves which currency, under which pair name (docs/CURRENCIES.md).
@Suite("Ask each source for its pair in the chosen currency", .hangLimit(.seconds(30)))
struct AskSourcesInCurrencyUseCaseTests {
  // MARK: The table

  @Test func table_saysWhichSourcesServeEachCurrency_inTheDefaultOrder() {
    let expected = Currency.supported.map { currency in
      let ids = PriceSourceRegistry.all.filter { $0.currencies.contains(currency) }
      return "\(currency.code)  " + ids.map(\.source.id).joined(separator: ", ")
    }

    #expect(PriceSourceRegistry.servingSummary == expected)
    #expect(
      PriceSourceRegistry.servingSummary.first?.hasPrefix("USD  binance, cryptocompare") == true)
    #expect(PriceSourceRegistry.servingSummary.contains("CAD  coinbase, kraken"))
  }

  @Test func table_saysWhichCurrenciesEachSourceServes() {
    #expect(currencies(servedBy: "binance") == [.usd, .eur, .jpy])
    #expect(currencies(servedBy: "bitstamp") == [.usd, .eur, .gbp])
    #expect(currencies(servedBy: "kraken") == Currency.supported)
    #expect(currencies(servedBy: "nosuchsource") == [])
  }

  @Test func table_everyCurrencyHasAtLeastTwoSources() {
    for currency in Currency.supported {
      #expect(PriceSourceRegistry.serving(currency).count >= 2, "\(currency)")
    }
  }

  // MARK: Request URLs

  @Test(arguments: PriceSourceRegistry.all.map(\.source.id))
  func url_inUSDIsTheDefaultURLByteForByte(sourceID: String) throws {
    let defaultURL = defaultURL(sourceID)
    let url = try definition(sourceID).url(for: .usd, base: defaultURL)

    #expect(url.absoluteString == defaultURL.absoluteString)
  }

  @Test(
    arguments: [
      ("binance", Currency.eur, "https://api.binance.com/api/v3/ticker/price?symbol=BTCEUR"),
      ("binance", .jpy, "https://api.binance.com/api/v3/ticker/price?symbol=BTCJPY"),
      (
        "cryptocompare", .eur,
        "https://min-api.cryptocompare.com/data/generateAvg?fsym=BTC&tsym=EUR&e=coinbase"
      ),
      ("coinbase", .eur, "https://api.coinbase.com/v2/prices/BTC-EUR/spot"),
      ("coinbase", .jpy, "https://api.coinbase.com/v2/prices/BTC-JPY/spot"),
      ("coinbase", .chf, "https://api.coinbase.com/v2/prices/BTC-CHF/spot"),
      ("kraken", .eur, "https://api.kraken.com/0/public/Ticker?pair=XBTEUR"),
      ("kraken", .aud, "https://api.kraken.com/0/public/Ticker?pair=XBTAUD"),
      ("kraken", .cad, "https://api.kraken.com/0/public/Ticker?pair=XBTCAD"),
      ("bitstamp", .gbp, "https://www.bitstamp.net/api/v2/ticker/btcgbp/"),
      ("bitstamp", .eur, "https://www.bitstamp.net/api/v2/ticker/btceur/"),
    ])
  func url_asksTheDefaultEndpointForTheCurrencysPair(
    sourceID: String, currency: Currency, expected: String
  ) throws {
    let base = defaultURL(sourceID)

    #expect(
      try definition(sourceID).url(for: currency, base: base).absoluteString
        == expected)
  }

  @Test(
    arguments: [
      (
        "binance", "http://127.0.0.1:8080/api/v3/ticker/price?symbol=BTCUSDT&x=1",
        "http://127.0.0.1:8080/api/v3/ticker/price?symbol=BTCEUR&x=1"
      ),
      (
        "cryptocompare", "https://cc.example/data/generateAvg?fsym=BTC&tsym=USD&e=kraken",
        "https://cc.example/data/generateAvg?fsym=BTC&tsym=EUR&e=kraken"
      ),
      (
        "coinbase", "https://proxy.example:8443/cb/v2/prices/btc-usd/spot",
        "https://proxy.example:8443/cb/v2/prices/BTC-EUR/spot"
      ),
      (
        "kraken", "http://127.0.0.1:9/0/public/Ticker?pair=XBTUSD",
        "http://127.0.0.1:9/0/public/Ticker?pair=XBTEUR"
      ),
      (
        "bitstamp", "https://mirror.example/api/v2/ticker/btcusd",
        "https://mirror.example/api/v2/ticker/btceur"
      ),
    ])
  func url_keepsAnOverrideWholeButItsPair(sourceID: String, base: String, expected: String)
    throws
  {
    let url = try definition(sourceID).url(for: .eur, base: URL(string: base)!)

    #expect(url.absoluteString == expected)
  }

  /// Coinbase's pair is a path segment: BTC, `-`, then three to five letters. A segment that only
  /// looks like one is left alone, even when it comes after the real one.
  @Test(
    arguments: [
      ("btc-usd/spot/btc-us", "BTC-EUR/spot/btc-us"),
      ("btc-usd/spot/btc-abcdef", "BTC-EUR/spot/btc-abcdef"),
      ("btc-usd/spot/btc-us1", "BTC-EUR/spot/btc-us1"),
      ("btc-usdcx/spot", "BTC-EUR/spot"),
    ])
  func url_setsThePairOnlyInASegmentOfBTCAndThreeToFiveLetters(path: String, expected: String)
    throws
  {
    let base = URL(string: "https://mirror.example/v2/prices/\(path)")!

    let url = try definition("coinbase").url(for: .eur, base: base)

    #expect(url.absoluteString == "https://mirror.example/v2/prices/\(expected)")
  }

  @Test func url_keepsAnOverrideWithoutAPairAsItIsInUSD() throws {
    let base = URL(string: "http://127.0.0.1:8080/my/price")!

    #expect(try definition("coinbase").url(for: .usd, base: base) == base)
  }

  @Test func url_refusesAnOverrideWithoutAPairInAnotherCurrency() {
    #expect(
      throws: PriceSourceDefinition.MarketError.noPairPart(sourceID: "kraken", expected: "pair=")
    ) {
      try definition("kraken").url(
        for: .eur, base: URL(string: "http://127.0.0.1:8080/ticker")!)
    }
    #expect(
      PriceSourceDefinition.MarketError.noPairPart(sourceID: "kraken", expected: "pair=")
        .description
        == "the kraken URL has no pair= to set the currency in")
  }

  @Test func url_refusesACurrencyTheSourceDoesNotServe() {
    #expect(
      throws: PriceSourceDefinition.MarketError.notServed(sourceID: "binance", currency: .gbp)
    ) {
      try definition("binance").url(for: .gbp, base: defaultURL("binance"))
    }
    #expect(
      PriceSourceDefinition.MarketError.notServed(sourceID: "bitstamp", currency: .jpy).description
        == "bitstamp has no BTC/JPY market")
  }

  // MARK: Mappers, with the shapes each source really sends

  @Test(
    arguments: [
      ("binance", Currency.eur, #"{"symbol":"BTCEUR","price":"74443.43000000"}"#, "74443.43"),
      ("binance", .jpy, #"{"symbol":"BTCJPY","price":"12081078.00000000"}"#, "12081078"),
      (
        "coinbase", .eur, #"{"data":{"base":"BTC","currency":"EUR","amount":"41191.91"}}"#,
        "41191.91"
      ),
      (
        "coinbase", .jpy, #"{"data":{"base":"BTC","currency":"JPY","amount":"5333330.8622"}}"#,
        "5333330.8622"
      ),
      (
        "coinbase", .gbp, #"{"data":{"amount":"35330.89","base":"BTC","currency":"GBP"}}"#,
        "35330.89"
      ),
      (
        "kraken", .eur,
        #"{"error":[],"result":{"XXBTZEUR":{"a":["60001.0","1","1.000"],"c":["60000.1","0.01"]}}}"#,
        "60000.1"
      ),
      (
        "kraken", .jpy,
        #"{"error":[],"result":{"XXBTZJPY":{"c":["12081078","0.001"],"o":"12000000"}}}"#,
        "12081078"
      ),
      (
        "kraken", .aud,
        #"{"error":[],"result":{"XBTAUD":{"a":["160100.00000","1","1.000"],"c":["160055.99000","0.01000000"]}}}"#,
        "160055.99"
      ),
      (
        "kraken", .chf,
        #"{"error":[],"result":{"XBTCHF":{"b":["50100.10000","2","2.000"],"c":["50110.00000","0.00100000"]}}}"#,
        "50110"
      ),
      (
        "cryptocompare", .eur,
        #"{"RAW":{"MARKET":"CUSTOMAGG","FROMSYMBOL":"BTC","TOSYMBOL":"EUR","PRICE":63412.7},"DISPLAY":{}}"#,
        "63412.7"
      ),
      (
        "bitstamp", .gbp,
        #"{"timestamp":"1763800000","last":"54210.10","bid":"54209","pair":"BTC/GBP"}"#, "54210.1"
      ),
    ])
  func mapper_readsThePriceOfThePairAskedFor(
    sourceID: String, currency: Currency, body: String, expected: String
  ) throws {
    let definition = try #require(PriceSourceRegistry.definition(id: sourceID))

    #expect("\(try definition.map(response(body), in: currency))" == expected)
  }

  @Test(
    arguments: [
      // Each one is a valid answer, for the wrong currency.
      ("binance", Currency.eur, #"{"symbol":"BTCUSDT","price":"68901.23"}"#),
      ("binance", .jpy, #"{"symbol":"BTCEUR","price":"74443.43"}"#),
      ("coinbase", .eur, #"{"data":{"amount":"68880.55","base":"BTC","currency":"USD"}}"#),
      ("coinbase", .cad, #"{"data":{"amount":"68880.55","base":"BTC","currency":"AUD"}}"#),
      ("coinbase", .eur, #"{"data":{"amount":"3000.00","base":"ETH","currency":"EUR"}}"#),
      ("kraken", .eur, #"{"error":[],"result":{"XXBTZUSD":{"c":["68870.1","1"]}}}"#),
      ("kraken", .usd, #"{"error":[],"result":{"XXBTZEUR":{"c":["60000.0","1"]}}}"#),
      ("kraken", .aud, #"{"error":[],"result":{"XBTCAD":{"c":["93000.0","1"]}}}"#),
      ("kraken", .usd, #"{"error":[],"result":{"XBTUSDT":{"c":["68870.1","1"]}}}"#),
      (
        "cryptocompare", .eur,
        #"{"RAW":{"FROMSYMBOL":"BTC","TOSYMBOL":"USD","PRICE":68910.12}}"#
      ),
      ("bitstamp", .eur, #"{"last":"68875.00","pair":"BTC/USD","market":"BTC/USD"}"#),
      ("bitstamp", .usd, #"{"last":"60000.00","pair":"BTC/EUR","market":"BTC/EUR"}"#),
    ])
  func mapper_deliversInvalidDataForAnotherCurrencysAnswer(
    sourceID: String, currency: Currency, body: String
  ) throws {
    let definition = try #require(PriceSourceRegistry.definition(id: sourceID))

    #expect {
      try definition.map(response(body), in: currency)
    } throws: { error in
      guard case .invalidData = error as? PriceSourceError else { return false }
      return true
    }
  }

  @Test func mapper_namesThePairItExpectedInItsError() {
    let body = #"{"symbol":"BTCUSDT","price":"68901.23"}"#
    #expect(throws: PriceSourceError.invalidData("symbol is BTCUSDT, not BTCEUR")) {
      try PriceSourceDefinition.binance.map(response(body), in: .eur)
    }
    let coinbase = #"{"data":{"amount":"1","base":"BTC","currency":"USD"}}"#
    #expect(throws: PriceSourceError.invalidData("data is not a BTC/JPY price")) {
      try PriceSourceDefinition.coinbase.map(response(coinbase), in: .jpy)
    }
    let kraken = #"{"error":[],"result":{"XXBTZUSD":{"c":["1","1"]}}}"#
    #expect(throws: PriceSourceError.invalidData("pair XXBTZUSD is not XBTGBP")) {
      try PriceSourceDefinition.kraken.map(response(kraken), in: .gbp)
    }
  }

  @Test func map_refusesAnyAnswerInACurrencyTheSourceDoesNotServe() {
    let bitstamp = #"{"timestamp":"1763800000","last":"54210.10"}"#
    #expect(throws: PriceSourceError.invalidData("bitstamp has no BTC/JPY market")) {
      try PriceSourceDefinition.bitstamp.map(response(bitstamp), in: .jpy)
    }
    #expect(throws: PriceSourceError.invalidData("cryptocompare has no BTC/CHF market")) {
      try PriceSourceDefinition.cryptoCompare.map(response("{}"), in: .chf)
    }
  }

  // MARK: Loader

  @Test func everySource_servesUSDFromItsDefaultURL() throws {
    for definition in PriceSourceRegistry.all {
      #expect(definition.markets[.usd] != nil, "\(definition.source.id)")
      #expect(try definition.url(for: .usd) == definition.defaultURL)
    }
  }

  @Test func loader_asksForThePairAndStampsTheQuoteWithItsCurrency() async throws {
    let client = StubHTTPClient(.response(response(#"{"symbol":"BTCJPY","price":"12081078.5"}"#)))
    let now = Date(timeIntervalSince1970: 1_795_356_185)
    let sut = RemotePriceLoader(
      client: client, definition: .binance, currency: .jpy,
      url: try PriceSourceDefinition.binance.url(for: .jpy), now: { now })

    let quote = try await sut.load()

    #expect(
      quote
        == PriceQuote(
          value: Decimal(string: "12081078.5")!, currency: "JPY", timestamp: now,
          source: PriceSourceDefinition.binance.source))
    #expect(
      client.requests.first?.url.absoluteString
        == "https://api.binance.com/api/v3/ticker/price?symbol=BTCJPY")
  }

  @Test func loader_refusesAnAnswerInAnotherCurrency() async throws {
    let client = StubHTTPClient(.response(response(#"{"symbol":"BTCUSDT","price":"68901.23"}"#)))
    let sut = RemotePriceLoader(
      client: client, definition: .binance, currency: .eur,
      url: try PriceSourceDefinition.binance.url(for: .eur), now: { Date() })

    await #expect(throws: PriceSourceError.invalidData("symbol is BTCUSDT, not BTCEUR")) {
      try await sut.load()
    }
  }

  @Test func marketURLs_sayWhyASourceCannotBeAskedInACurrency() throws {
    let configuration = PricePipeline.Configuration(
      currency: .jpy, sources: [.binance, .bitstamp],
      urls: ["binance": URL(string: "http://127.0.0.1:9/price")!], primaryTimeout: .seconds(1))

    let markets = configuration.marketURLs

    #expect(
      throws: PriceSourceDefinition.MarketError.notServed(sourceID: "bitstamp", currency: .jpy)
    ) { try markets["bitstamp"]?.get() }
    #expect(throws: PriceSourceDefinition.MarketError.self) { try markets["binance"]?.get() }
    #expect(
      try PricePipeline.Configuration(currency: .jpy, sources: [.binance], primaryTimeout: .zero)
        .marketURLs["binance"]?.get().absoluteString
        == "https://api.binance.com/api/v3/ticker/price?symbol=BTCJPY")
  }

  // MARK: Helpers

  private func response(_ body: String, status: Int = 200) -> BTCHTTPResponse {
    BTCHTTPResponse(status: status, body: Data(body.utf8))
  }

  private func definition(_ sourceID: String) -> PriceSourceDefinition {
    PriceSourceRegistry.definition(id: sourceID)!
  }

  private func currencies(servedBy sourceID: String) -> [Currency] {
    PriceSourceRegistry.definition(id: sourceID)?.currencies ?? []
  }

  private func defaultURL(_ sourceID: String) -> URL {
    PriceSourceRegistry.definition(id: sourceID)!.defaultURL
  }
}

/// Answers every request with the same response and records the requests.
