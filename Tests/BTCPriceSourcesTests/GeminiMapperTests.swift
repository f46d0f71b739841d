import BTCPriceCore
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// Gemini's ticker as its documentation shows it (developer.gemini.com, "Get Ticker":
/// `GET https://api.gemini.com/v1/pubticker/{symbol}`; prices are strings, the volume object is
/// keyed by both currencies of the pair) and its `ErrorResponse` shape
/// (`{"result":"error","reason":…,"message":…}`, docs.gemini.com/rest/~schemas).
@Suite("Map Gemini payloads", .hangLimit(.seconds(30)))
struct GeminiMapperTests {
  private let usd = PriceSourceDefinition.gemini.markets[.usd]!

  @Test func deliversTheLastTradeExactly() throws {
    let body = """
      {"bid":"68870.01","ask":"68871.99","last":"68870.55",\
      "volume":{"BTC":"2210.505328803","USD":"2135477.463379586263","timestamp":1483018200000}}
      """

    #expect("\(try GeminiMapper.map(response(body), pair: usd))" == "68870.55")
  }

  @Test func deliversHTTPStatusWithItsMessageOnRateLimit() {
    let body =
      #"{"result":"error","reason":"RateLimit","message":"Requests were made too frequently"}"#

    #expect(throws: PriceSourceError.httpStatus(429, message: "Requests were made too frequently"))
    {
      try GeminiMapper.map(response(body, status: 429), pair: usd)
    }
  }

  @Test func deliversInvalidDataForAnErrorSentWithHTTP200() {
    let body =
      #"{"result":"error","reason":"InvalidSymbol","message":"Supplied value 'btcxyz' is not a valid symbol"}"#

    #expect(
      throws: PriceSourceError.invalidData(
        "Gemini error: Supplied value 'btcxyz' is not a valid symbol")
    ) {
      try GeminiMapper.map(response(body), pair: usd)
    }
  }

  @Test(
    arguments: [
      // Another pair's answer: its volume is keyed by other currencies.
      #"{"last":"3500.10","volume":{"ETH":"100","USD":"350010","timestamp":1}}"#,
      #"{"last":"63000.10","volume":{"BTC":"100","EUR":"6300010","timestamp":1}}"#,
      // The price as a number, negative, zero, or missing; no volume at all.
      #"{"last":68870.55,"volume":{"BTC":"1","USD":"1","timestamp":1}}"#,
      #"{"last":"-1","volume":{"BTC":"1","USD":"1","timestamp":1}}"#,
      #"{"last":"0","volume":{"BTC":"1","USD":"1","timestamp":1}}"#,
      #"{"bid":"1","volume":{"BTC":"1","USD":"1","timestamp":1}}"#,
      #"{"last":"68870.55"}"#,
      "[]",
    ])
  func deliversInvalidDataOn200WithBadPayload(body: String) {
    #expect {
      try GeminiMapper.map(response(body), pair: usd)
    } throws: { error in
      guard case .invalidData = error as? PriceSourceError else { return false }
      return true
    }
  }

  @Test func asksForBTCUSDAtItsDocumentedEndpoint() throws {
    #expect(
      try PriceSourceDefinition.gemini.url(for: .usd).absoluteString
        == "https://api.gemini.com/v1/pubticker/btcusd")
  }

  private func response(_ body: String, status: Int = 200) -> BTCHTTPResponse {
    BTCHTTPResponse(status: status, body: Data(body.utf8))
  }
}
