import BTCPriceCore
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// OKX's ticker as its documentation shows it (okx.com/docs-v5, "GET / Ticker": `GET
/// /api/v5/market/ticker?instId=…`, every number a string, `{"code":"0","msg":"","data":[…]}`;
/// the example as rosssaunders/coincise's `docs/okx/endpoints/private/get_api_v5_market_ticker.md`
/// and JKorf/OKX.Net's `OKX.Net.UnitTests/Endpoints/UnifiedApi/ExchangeData/GetTicker.txt` keep
/// it) and its errors as clients recorded them: `{"code":"51000","data":[],"msg":"Parameter
/// param error"}` (sieblyio/okx-api#105), `{"msg":"Too Many Requests","code":"50011"}` with 429
/// (c9s/bbgo#1534, ccxt/ccxt#18901), `{"msg":"Requests too frequent.","code":50011}` with a
/// number (knowm/XChange#4114); OKX's error table gives 51001 with HTTP 200 and 50011 with 200 or
/// 429 (index id 52930437254).
@Suite("Map OKX payloads", .hangLimit(.seconds(30)))
struct OKXMapperTests {
  private let usd = PriceSourceDefinition.okx.markets[.usd]!

  @Test func deliversTheLastTradeExactly() throws {
    #expect(
      "\(try OKXMapper.map(response(Self.ticker(last: "68870.55")), pair: usd))" == "68870.55")
  }

  @Test func refusesTheDocumentationsOwnExample_whichIsForAnotherInstrument() {
    // The docs' example answers for the BTC-USD-SWAP perpetual, not the BTC-USDT spot pair.
    #expect(throws: PriceSourceError.invalidData("ticker is not for BTC-USDT")) {
      try OKXMapper.map(
        response(Self.ticker(last: "9999.99", instType: "SWAP", instId: "BTC-USD-SWAP")),
        pair: usd)
    }
  }

  @Test func deliversInvalidDataForAnUnknownInstrumentSentWithHTTP200() {
    let body = #"{"code":"51001","msg":"Instrument ID does not exist","data":[]}"#

    #expect(
      throws: PriceSourceError.invalidData(
        "OKX error: code 51001: Instrument ID does not exist")
    ) {
      try OKXMapper.map(response(body), pair: usd)
    }
  }

  @Test func deliversHTTPStatusWithItsMessage_whateverTypeItsCodeIs() {
    #expect(throws: PriceSourceError.httpStatus(429, message: "code 50011: Too Many Requests")) {
      try OKXMapper.map(
        response(#"{"msg":"Too Many Requests","code":"50011"}"#, status: 429), pair: usd)
    }
    #expect(
      throws: PriceSourceError.httpStatus(429, message: "code 50011: Requests too frequent.")
    ) {
      try OKXMapper.map(
        response(#"{"msg":"Requests too frequent.","code":50011}"#, status: 429), pair: usd)
    }
    #expect(throws: PriceSourceError.httpStatus(400, message: "code 51000: Parameter param error"))
    {
      try OKXMapper.map(
        response(#"{"code":"51000","data":[],"msg":"Parameter param error"}"#, status: 400),
        pair: usd)
    }
  }

  @Test func deliversARateLimitForTooManyRequestsSentWithHTTP200() {
    #expect(
      throws: PriceSourceError.rateLimited(
        status: nil, retryAfter: nil, message: "code 50011: Too Many Requests")
    ) {
      try OKXMapper.map(response(#"{"msg":"Too Many Requests","code":"50011"}"#), pair: usd)
    }
  }

  @Test(
    arguments: [
      // Another spot pair, or no instrument at all.
      ticker(last: "3500.10", instId: "ETH-USDT"),
      ticker(last: "63000.10", instId: "BTC-EUR"),
      #"{"code":"0","msg":"","data":[{"last":"68870.55"}]}"#,
      // The price as a number, empty (no trade yet), negative, zero, or missing.
      #"{"code":"0","msg":"","data":[{"instId":"BTC-USDT","last":68870.55}]}"#,
      ticker(last: ""),
      ticker(last: "-1"),
      ticker(last: "0"),
      #"{"code":"0","msg":"","data":[{"instId":"BTC-USDT","bidPx":"1"}]}"#,
      // No ticker, two tickers, no data array.
      #"{"code":"0","msg":"","data":[]}"#,
      #"{"code":"0","msg":"","data":[\#(tickerObject(last: "1")),\#(tickerObject(last: "2"))]}"#,
      #"{"code":"0","msg":""}"#,
      "[]",
    ])
  func deliversInvalidDataOn200WithBadPayload(body: String) {
    #expect {
      try OKXMapper.map(response(body), pair: usd)
    } throws: { error in
      guard case .invalidData = error as? PriceSourceError else { return false }
      return true
    }
  }

  @Test func asksForBTCUSDTAtItsDocumentedEndpoint_andServesNoOtherCurrency() throws {
    #expect(
      try PriceSourceDefinition.okx.url(for: .usd).absoluteString
        == "https://www.okx.com/api/v5/market/ticker?instId=BTC-USDT")
    #expect(PriceSourceDefinition.okx.currencies == [.usd])
    #expect(PriceSourceDefinition.okx.apiKey == nil)
  }

  // MARK: Helpers

  /// OKX's documented ticker, as one answer.
  private static func ticker(last: String, instType: String = "SPOT", instId: String = "BTC-USDT")
    -> String
  {
    #"{"code":"0","msg":"","data":["# + tickerObject(last: last, instType: instType, instId: instId)
      + "]}"
  }

  private static func tickerObject(
    last: String, instType: String = "SPOT", instId: String = "BTC-USDT"
  ) -> String {
    #"{"instType":""# + instType + #"","instId":""# + instId + #"","last":""# + last
      + #"","lastSz":"0.1","askPx":"9999.99","askSz":"11","bidPx":"8888.88","bidSz":"5","#
      + #""open24h":"9000","high24h":"10000","low24h":"8888.88","volCcy24h":"2222","#
      + #""vol24h":"2222","sodUtc0":"2222","sodUtc8":"2222","ts":"1597026383085"}"#
  }

  private func response(_ body: String, status: Int = 200) -> BTCHTTPResponse {
    BTCHTTPResponse(status: status, body: Data(body.utf8))
  }
}
