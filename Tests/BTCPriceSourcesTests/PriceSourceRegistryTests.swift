import BTCPriceCore
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("The registry of price sources", .hangLimit(.seconds(30)))
struct PriceSourceRegistryTests {
  @Test func all_startsWithTheSpecifiedPrimaryAndFallback_andListsEachSourceOnce() {
    let ids = PriceSourceRegistry.all.map(\.source.id)

    #expect(ids.prefix(2) == ["binance", "cryptocompare"])
    #expect(Set(ids).count == ids.count)
    #expect(Set(PriceSourceRegistry.all.map(\.source.displayName)).count == ids.count)
    #expect(ids.allSatisfy { $0 == $0.lowercased() && !$0.contains(" ") && !$0.contains(",") })
  }

  @Test func okx_comesAfterTheFiatExchanges_andBeforeGemini_soTheStreamsOpenedStayTheSame() {
    let ids = PriceSourceRegistry.all.map(\.source.id)
    let okx = ids.firstIndex(of: "okx")!

    // USDT, like Binance: the true USD (EUR, GBP) of Coinbase, Kraken and Bitstamp first. Ten
    // requests a second allowed, where Gemini asks for one: ahead of Gemini.
    #expect(["coinbase", "kraken", "bitstamp"].allSatisfy { ids.firstIndex(of: $0)! < okx })
    #expect(okx < ids.firstIndex(of: "gemini")!)
    // A default run still opens Binance's and Coinbase's streams, Kraken's standing by.
    #expect(
      PriceStreamSet.endpoints(
        sources: PriceSourceRegistry.all, currency: .usd, maximumStreams: 3
      ).map(\.source.id) == ["binance", "coinbase", "kraken"])
  }

  @Test func chain_namedByAListOfIds_keepsItsOrderAndIgnoresCaseAndSpaces() throws {
    let chain = try PriceSourceRegistry.chain(named: " Kraken,coinbase ")

    #expect(chain.map(\.source.id) == ["kraken", "coinbase"])
    #expect(
      try PriceSourceRegistry.chain(named: nil).map(\.source.id)
        == PriceSourceRegistry.all.map(\.source.id))
  }

  @Test(arguments: [
    ("binance,ftx", #"unknown source "ftx"; known sources: \#(knownSources)."#),
    ("coinbase,binance,coinbase", "coinbase is listed twice."),
    ("", #"unknown source ""; known sources: \#(knownSources)."#),
    // A name pasted by mistake is quoted up to its first 40 characters.
    (
      String(repeating: "n", count: 40) + "X",
      #"unknown source "\#(String(repeating: "n", count: 40))"; known sources: \#(knownSources)."#
    ),
  ])
  func chain_refusesUnknownAndRepeatedSources(list: String, message: String) {
    #expect(throws: PriceSourceRegistry.InvalidList(description: message)) {
      try PriceSourceRegistry.chain(named: list)
    }
  }

  @Test func everySource_hasAnOptionAndAnEnvironmentVariableNamedAfterItsId() {
    for definition in PriceSourceRegistry.all {
      let id = definition.source.id
      #expect(definition.urlOptionName == "\(id)-url")
      #expect(definition.urlEnvironmentVariable == "BTC_PRICE_\(id.uppercased())_URL")
    }
  }

  @Test func request_carriesTheUserAgentAndTheKeyOnlyForASourceThatTakesOne() {
    for definition in PriceSourceRegistry.all {
      let request = definition.request(apiKey: "k3y")
      #expect(request.url == definition.defaultURL)
      #expect(request.header("User-Agent") == BTCPriceVersion.userAgent)
      let expected = definition.apiKey.map { $0.prefix + "k3y" }
      #expect(request.header(definition.apiKey?.header ?? "Authorization") == expected)
    }
    #expect(PriceSourceDefinition.cryptoCompare.request(apiKey: "").header("Authorization") == nil)
  }
}

@Suite("Advice when a source refuses us", .hangLimit(.seconds(30)))
struct SourceAdviceTests {
  let hour = Duration.seconds(3600)

  @Test func cryptoCompare401_withoutAKey_saysWhereToGetOne() {
    let advice = PriceSourceDefinition.cryptoCompare.advice(
      for: .httpStatus(401, message: nil), coolDown: hour, apiKeyGiven: false)

    #expect(
      advice
        == SourceAdvice(
          status: 401,
          text: "cryptocompare needs an API key since May 2026 (HTTP 401); not asking it again "
            + "for 60 min. To use it, set CRYPTOCOMPARE_API_KEY to a key from "
            + "https://www.cryptocompare.com/cryptopian/api-keys"))
  }

  @Test func cryptoCompare401_withAKey_saysTheKeyWasRejected() {
    let advice = PriceSourceDefinition.cryptoCompare.advice(
      for: .httpStatus(401, message: nil), coolDown: hour, apiKeyGiven: true)

    #expect(
      advice?.text
        == "cryptocompare rejected the key in CRYPTOCOMPARE_API_KEY (HTTP 401); not asking it "
        + "again for 60 min.")
  }

  @Test func cryptoCompareRefusalInItsAnswer_givesTheKeyHintOnceAsFor401() {
    let advice = PriceSourceDefinition.cryptoCompare.advice(
      for: .refused("You need a valid auth key or api key"), coolDown: hour, apiKeyGiven: false)

    #expect(advice?.status == 401)
    #expect(
      advice?.text
        == "cryptocompare needs an API key since May 2026 (an API key error in its answer); "
        + "not asking it again for 60 min. To use it, set CRYPTOCOMPARE_API_KEY to a key from "
        + "https://www.cryptocompare.com/cryptopian/api-keys")
  }

  @Test func binance451_pointsAtBinanceUS() {
    let advice = PriceSourceDefinition.binance.advice(
      for: .httpStatus(451, message: nil), coolDown: hour, apiKeyGiven: false)

    #expect(advice?.status == 451)
    #expect(
      advice?.text.hasSuffix(
        "--binance-url 'https://api.binance.us/api/v3/ticker/price?symbol=BTCUSDT'") == true)
  }

  @Test(arguments: [
    (401, "kraken wants credentials (HTTP 401); not asking it again for 60 min."),
    (403, "kraken forbids our requests (HTTP 403); not asking it again for 60 min."),
    (451, "kraken refuses this location (HTTP 451); not asking it again for 60 min."),
  ])
  func otherRefusals_getTheGeneralAdvice(status: Int, text: String) {
    #expect(
      PriceSourceDefinition.kraken.advice(
        for: .httpStatus(status, message: nil), coolDown: hour, apiKeyGiven: false)
        == SourceAdvice(status: status, text: text))
  }

  @Test func ban418_isReportedAsABan() {
    #expect(
      PriceSourceDefinition.binance.advice(
        for: .rateLimited(status: 418, retryAfter: .seconds(600), message: nil),
        coolDown: .seconds(600), apiKeyGiven: false)
        == SourceAdvice(
          status: 418,
          text:
            "binance has banned this address (HTTP 418); not asking it again for 10 min, as it asked."
        ),
      "a run warns once per source and status: a ban's is 418")
  }

  @Test(arguments: [
    PriceSourceError.rateLimited(status: 429, retryAfter: nil, message: nil),
    .timedOut(after: .milliseconds(800)), .httpStatus(503, message: nil),
    .unreachable("connection refused"), .invalidData("junk"),
  ])
  func failuresThatMendThemselves_getNoAdvice(cause: PriceSourceError) {
    for definition in PriceSourceRegistry.all {
      #expect(definition.advice(for: cause, coolDown: hour, apiKeyGiven: false) == nil)
    }
  }
}

/// `binance, cryptocompare, …`: the registry's ids in order, as error messages list them.
private let knownSources = PriceSourceRegistry.all.map(\.source.id).joined(separator: ", ")
