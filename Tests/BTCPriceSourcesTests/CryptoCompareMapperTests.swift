import BTCPriceCore
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Map CryptoCompare generateAvg payloads", .hangLimit(.seconds(30)))
struct CryptoCompareMapperTests {
  @Test func map_readsNumberPriceExactlyFromItsLiteralText() throws {
    let price = try PriceSourceDefinition.cryptoCompare.map(response(payload(price: "68910.12")))

    // Through Double this would be 68910.11999999999...
    #expect("\(price)" == "68910.12")
    #expect(price == Decimal(string: "68910.12")!)
  }

  @Test func map_acceptsExponentNotation() throws {
    #expect(
      try PriceSourceDefinition.cryptoCompare.map(response(payload(price: "6.891012e4")))
        == Decimal(
          string: "68910.12")!)
  }

  @Test func map_deliversInvalidDataOnErrorBodyWith200() {
    let body =
      #"{"Response":"Error","Message":"fsym param seems to be missing.","HasWarning":false,"Type":99}"#

    #expect(
      throws: PriceSourceError.invalidData("CryptoCompare error: fsym param seems to be missing.")
    ) {
      try PriceSourceDefinition.cryptoCompare.map(response(body))
    }
  }

  @Test func map_deliversARefusalOnTheKeylessErrorSentWith200() {
    let body =
      #"{"Response":"Error","Message":"You need a valid auth key or api key to access this endpoint","HasWarning":false,"Type":1,"RateLimit":{},"Data":{}}"#

    #expect(
      throws: PriceSourceError.refused(
        "You need a valid auth key or api key to access this endpoint")
    ) {
      try PriceSourceDefinition.cryptoCompare.map(response(body))
    }
  }

  /// Either phrase alone says the key is the problem, in any case: a refusal, not bad data.
  @Test(arguments: ["Your api key is not valid", "Invalid Auth Key given"])
  func map_deliversARefusalOnAnErrorNamingOneKey(message: String) {
    let body = #"{"Response":"Error","Message":"\#(message)","HasWarning":false,"Type":1}"#

    #expect(throws: PriceSourceError.refused(message)) {
      try PriceSourceDefinition.cryptoCompare.map(response(body))
    }
  }

  @Test func map_deliversARateLimitOnTheOverTheLimitErrorSentWith200() {
    let message = "You are over your rate limit please upgrade your account!"
    let body =
      #"{"Response":"Error","Message":"\#(message)","HasWarning":false,"Type":99,"RateLimit":{"calls_made":{"second":1}},"Data":{}}"#

    #expect(throws: PriceSourceError.rateLimited(status: nil, retryAfter: nil, message: message)) {
      try PriceSourceDefinition.cryptoCompare.map(response(body))
    }
  }

  @Test func map_deliversHTTPStatusWithMessageOnMissingKey401() {
    let body = #"{"Data":{},"Err":{"type":2,"message":"API key required for this endpoint."}}"#

    #expect(
      throws: PriceSourceError.httpStatus(401, message: "API key required for this endpoint.")
    ) {
      try PriceSourceDefinition.cryptoCompare.map(response(body, status: 401))
    }
  }

  @Test func map_deliversHTTPStatusOnNon200WithoutErrorBody() {
    #expect(throws: PriceSourceError.httpStatus(503, message: nil)) {
      try PriceSourceDefinition.cryptoCompare.map(response("Service Unavailable", status: 503))
    }
  }

  @Test(
    "map_deliversInvalidDataOn200WithBadPayload",
    arguments: [
      "",
      "<html></html>",
      #"{"RAW":{"PRICE":68910.12,"FROMSYMBOL":"BTC""#,
      #"{"RAW":{"PRICE":"68910.12","FROMSYMBOL":"BTC","TOSYMBOL":"USD"}}"#,
      #"{"RAW":{"PRICE":0,"FROMSYMBOL":"BTC","TOSYMBOL":"USD"}}"#,
      #"{"RAW":{"PRICE":-1.5,"FROMSYMBOL":"BTC","TOSYMBOL":"USD"}}"#,
      #"{"RAW":{"PRICE":68910.12,"FROMSYMBOL":"ETH","TOSYMBOL":"USD"}}"#,
      #"{"RAW":{"PRICE":68910.12,"FROMSYMBOL":"BTC","TOSYMBOL":"EUR"}}"#,
      #"{"RAW":{"FROMSYMBOL":"BTC","TOSYMBOL":"USD"}}"#,
      #"{"RAW":[]}"#,
      #"{"DISPLAY":{"PRICE":"$ 68,910.1"}}"#,
      #"{"RAW":{"PRICE":1e999,"FROMSYMBOL":"BTC","TOSYMBOL":"USD"}}"#,
    ])
  func map_deliversInvalidDataOn200WithBadPayload(body: String) {
    #expect {
      try PriceSourceDefinition.cryptoCompare.map(response(body))
    } throws: { error in
      guard case .invalidData = error as? PriceSourceError else { return false }
      return true
    }
  }

  private func payload(price: String) -> String {
    """
    {"RAW":{"MARKET":"CUSTOMAGG","FROMSYMBOL":"BTC","TOSYMBOL":"USD","FLAGS":"0","PRICE":\(price),\
    "LASTUPDATE":1763800000},"DISPLAY":{"FROMSYMBOL":"Ƀ","TOSYMBOL":"$","PRICE":"$ 68,910.1"}}
    """
  }

  private func response(_ body: String, status: Int = 200) -> BTCHTTPResponse {
    BTCHTTPResponse(status: status, body: Data(body.utf8))
  }
}
