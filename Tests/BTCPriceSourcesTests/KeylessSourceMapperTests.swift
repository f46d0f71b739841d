import BTCPriceCore
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// Real-shaped payloads of the keyless sources (ENGINEERING §3) and their error shapes.
@Suite("Map Coinbase, Kraken and Bitstamp payloads", .hangLimit(.seconds(30)))
struct KeylessSourceMapperTests {
  // MARK: Coinbase

  @Test func coinbase_deliversExactAmount() throws {
    let price = try PriceSourceDefinition.coinbase.map(
      response(#"{"data":{"amount":"68880.55","base":"BTC","currency":"USD"}}"#))

    #expect("\(price)" == "68880.55")
  }

  @Test func coinbase_deliversHTTPStatusWithErrorTextOnRateLimit() {
    #expect(throws: PriceSourceError.httpStatus(429, message: "Rate limit exceeded")) {
      try PriceSourceDefinition.coinbase.map(
        response(
          #"{"errors":[{"id":"rate_limit_exceeded","message":"Rate limit exceeded"}]}"#,
          status: 429))
    }
  }

  @Test(
    arguments: [
      #"{"data":{"amount":"68880.55","base":"ETH","currency":"USD"}}"#,
      #"{"data":{"amount":"68880.55","base":"BTC","currency":"EUR"}}"#,
      #"{"data":{"amount":68880.55,"base":"BTC","currency":"USD"}}"#,
      #"{"data":{"amount":"-1","base":"BTC","currency":"USD"}}"#,
      #"{"errors":[{"id":"not_found","message":"Invalid currency"}]}"#,
      #"{"data":[]}"#,
      "<html>Cloudflare</html>",
    ])
  func coinbase_deliversInvalidDataOn200WithBadPayload(body: String) {
    expectInvalidData { try PriceSourceDefinition.coinbase.map(response(body)) }
  }

  // MARK: Kraken

  @Test func kraken_deliversLastTradeFromTheSingleResultWhateverItsKey() throws {
    let body = """
      {"error":[],"result":{"XXBTZUSD":{"a":["68871.00000","1","1.000"],\
      "b":["68870.90000","2","2.000"],"c":["68870.10000","0.00100000"],"o":"68500.0"}}}
      """

    #expect("\(try PriceSourceDefinition.kraken.map(response(body)))" == "68870.1")
  }

  @Test func kraken_deliversInvalidDataForAnErrorSentWithHTTP200() {
    #expect(throws: PriceSourceError.invalidData("Kraken error: EQuery:Unknown asset pair")) {
      try PriceSourceDefinition.kraken.map(response(#"{"error":["EQuery:Unknown asset pair"]}"#))
    }
  }

  @Test(arguments: ["EAPI:Rate limit exceeded", "EGeneral:Too many requests"])
  func kraken_deliversRateLimitedForARateLimitSaidInTheBody(message: String) {
    #expect(throws: PriceSourceError.rateLimited(status: nil, retryAfter: nil, message: message)) {
      try PriceSourceDefinition.kraken.map(response(#"{"error":["\#(message)"]}"#))
    }
  }

  @Test func kraken_deliversHTTPStatusOnNon200() {
    #expect(throws: PriceSourceError.httpStatus(520, message: nil)) {
      try PriceSourceDefinition.kraken.map(response("<html>origin error</html>", status: 520))
    }
  }

  @Test(
    arguments: [
      #"{"error":[],"result":{}}"#,
      #"{"error":[],"result":{"XXBTZUSD":{"c":["1","1"]},"XETHZUSD":{"c":["2","1"]}}}"#,
      #"{"error":[],"result":{"XETHZUSD":{"c":["3000.0","1"]}}}"#,
      #"{"error":[],"result":{"XXBTZEUR":{"c":["60000.0","1"]}}}"#,
      #"{"error":[],"result":{"XXBTZUSD":{"c":[]}}}"#,
      #"{"error":[],"result":{"XXBTZUSD":{"c":[68870.1,"1"]}}}"#,
      #"{"error":[],"result":{"XXBTZUSD":{"c":["0.0","1"]}}}"#,
      #"{"error":[]}"#,
    ])
  func kraken_deliversInvalidDataOn200WithBadPayload(body: String) {
    expectInvalidData { try PriceSourceDefinition.kraken.map(response(body)) }
  }

  // MARK: Bitstamp

  @Test func bitstamp_deliversExactLast() throws {
    let body = """
      {"timestamp":"1763800000","last":"68875.00","bid":"68874.00","ask":"68876.00",\
      "market_type":"SPOT","pair":"BTC/USD","market":"BTC/USD"}
      """

    #expect(try PriceSourceDefinition.bitstamp.map(response(body)) == Decimal(string: "68875")!)
  }

  @Test func bitstamp_takesAnAnswerThatNamesItsPairOnce() throws {
    let body = #"{"last":"73285","pair":"BTC/USD"}"#

    #expect(try PriceSourceDefinition.bitstamp.map(response(body)) == Decimal(string: "73285")!)
  }

  /// Bitstamp's documented example is another pair's ticker: it, and every answer that does not
  /// name BTC/USD in `pair` (and in `market` where it has one), is invalid data, never a price.
  @Test(
    arguments: [
      (#"{"last":"2211","pair":"ETH/USD","market":"ETH/USD"}"#, "pair ETH/USD is not BTC/USD"),
      (#"{"last":"60123","pair":"BTC/EUR","market":"BTC/EUR"}"#, "pair BTC/EUR is not BTC/USD"),
      (#"{"last":"2211","pair":"BTC/USD\u0000"}"#, "pair BTC/USD  is not BTC/USD"),
      (#"{"last":"2211","pair":"btc/usd"}"#, "pair btc/usd is not BTC/USD"),
      (#"{"last":"77265","pair":"BTC/USD-PERP"}"#, "pair BTC/USD-PERP is not BTC/USD"),
      (#"{"last":"2211","pair":"BTC/USD","market":"ETH/USD"}"#, "market ETH/USD is not BTC/USD"),
      (#"{"last":"2211","pair":"BTC/USD","market":null}"#, "market is not a string"),
      (#"{"last":"68875.00"}"#, "no pair, expected BTC/USD"),
      (#"{"last":"68875.00","pair":["BTC/USD"]}"#, "pair is not a string"),
    ])
  func bitstamp_refusesAnAnswerForAnotherPair(body: String, reason: String) {
    #expect(throws: PriceSourceError.invalidData(reason)) {
      try PriceSourceDefinition.bitstamp.map(response(body))
    }
  }

  @Test func bitstamp_deliversHTTPStatusWithReasonOnError() {
    #expect(throws: PriceSourceError.httpStatus(404, message: "Not found")) {
      try PriceSourceDefinition.bitstamp.map(
        response(#"{"status":"error","reason":"Not found","code":"404"}"#, status: 404))
    }
  }

  @Test(
    arguments: [
      #"{"status":"error","reason":"Invalid pair"}"#,
      #"{"last":68875.00,"pair":"BTC/USD"}"#,
      #"{"last":"n/a","pair":"BTC/USD"}"#,
      #"{"timestamp":"1763800000","pair":"BTC/USD"}"#,
      "",
    ])
  func bitstamp_deliversInvalidDataOn200WithBadPayload(body: String) {
    expectInvalidData { try PriceSourceDefinition.bitstamp.map(response(body)) }
  }

  // MARK: Every mapper

  @Test(arguments: PriceSourceRegistry.all.map(\.source.id))
  func everyMapper_saysWhyABodyIsNotJSON(id: String) throws {
    let definition = try #require(PriceSourceRegistry.definition(id: id))

    #expect(throws: PriceSourceError.invalidData("malformed JSON at byte 0: unexpected character"))
    {
      try definition.map(response("<html>"))
    }
  }

  // MARK: Helpers

  private func response(_ body: String, status: Int = 200) -> BTCHTTPResponse {
    BTCHTTPResponse(status: status, body: Data(body.utf8))
  }

  private func expectInvalidData(
    sourceLocation: SourceLocation = #_sourceLocation, _ map: () throws -> Decimal
  ) {
    #expect(sourceLocation: sourceLocation) {
      try map()
    } throws: { error in
      guard case .invalidData = error as? PriceSourceError else { return false }
      return true
    }
  }
}
