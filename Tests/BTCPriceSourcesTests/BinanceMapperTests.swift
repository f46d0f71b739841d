import BTCPriceCore
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Map Binance ticker payloads", .hangLimit(.seconds(30)))
struct BinanceMapperTests {
  @Test func map_deliversExactPriceFromStringField() throws {
    let price = try PriceSourceDefinition.binance.map(
      response(#"{"symbol":"BTCUSDT","price":"114721.34000000"}"#))

    #expect(price == Decimal(string: "114721.34")!)
  }

  @Test func map_keepsEveryDigitOfThePrice() throws {
    let price = try PriceSourceDefinition.binance.map(
      response(#"{"symbol":"BTCUSDT","price":"68901.23456789"}"#))

    #expect("\(price)" == "68901.23456789")
  }

  @Test func map_deliversHTTPStatusErrorWithBinanceMessageOnNon200Response() {
    for status in [400, 418, 429, 451, 500, 503] {
      #expect(throws: PriceSourceError.httpStatus(status, message: "Invalid symbol.")) {
        try PriceSourceDefinition.binance.map(
          response(#"{"code":-1121,"msg":"Invalid symbol."}"#, status: status))
      }
    }
  }

  @Test func map_deliversHTTPStatusErrorWithoutMessageOnNon200HTMLResponse() {
    #expect(throws: PriceSourceError.httpStatus(502, message: nil)) {
      try PriceSourceDefinition.binance.map(response("<html>Bad Gateway</html>", status: 502))
    }
  }

  @Test(
    "map_deliversInvalidDataOn200WithBadPayload",
    arguments: [
      "",
      "<html><body>Maintenance</body></html>",
      #"{"symbol":"BTCUSDT","price":"6890"#,
      #"{"symbol":"BTCUSDT","price":"0"}"#,
      #"{"symbol":"BTCUSDT","price":"0.00000000"}"#,
      #"{"symbol":"BTCUSDT","price":"-68901.23"}"#,
      #"{"symbol":"BTCUSDT","price":"abc"}"#,
      #"{"symbol":"BTCUSDT","price":"12abc"}"#,
      #"{"symbol":"BTCUSDT","price":" 12"}"#,
      #"{"symbol":"BTCUSDT","price":"1e400"}"#,
      // A string price is plain decimal text: no exponent, however small or right its value.
      #"{"symbol":"BTCUSDT","price":"7.419271e-4"}"#,
      #"{"symbol":"BTCUSDT","price":"6.890123e4"}"#,
      #"{"symbol":"BTCUSDT","price":"+68901.23"}"#,
      #"{"symbol":"BTCUSDT","price":"NaN"}"#,
      #"{"symbol":"BTCUSDT","price":""}"#,
      #"{"symbol":"BTCUSDT","price":68901.23}"#,
      #"{"symbol":"BTCUSDT","price":null}"#,
      #"{"symbol":"ETHUSDT","price":"3000.00"}"#,
      #"{"price":"68901.23"}"#,
      #"["BTCUSDT","68901.23"]"#,
      #"{"symbol":"BTCUSDT","price":"68901.23"} trailing"#,
    ])
  func map_deliversInvalidDataOn200WithBadPayload(body: String) {
    #expect {
      try PriceSourceDefinition.binance.map(response(body))
    } throws: { error in
      guard case .invalidData = error as? PriceSourceError else { return false }
      return true
    }
  }

  @Test func map_namesAPriceWrittenWithAnExponent() {
    #expect(throws: PriceSourceError.invalidData(#"price "7.419271e-4" is not a decimal number"#)) {
      try PriceSourceDefinition.binance.map(
        response(#"{"symbol":"BTCUSDT","price":"7.419271e-4"}"#))
    }
  }

  private func response(_ body: String, status: Int = 200) -> BTCHTTPResponse {
    BTCHTTPResponse(status: status, body: Data(body.utf8))
  }
}
