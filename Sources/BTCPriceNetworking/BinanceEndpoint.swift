import BTCPriceCore
import Foundation

/// Binance spot ticker: `GET /api/v3/ticker/price?symbol=BTCUSDT`.
public enum BinanceEndpoint {
  public static let defaultURL = URL(
    string: "https://api.binance.com/api/v3/ticker/price?symbol=BTCUSDT")!

  public static func request(url: URL = defaultURL) -> HTTPRequest {
    HTTPRequest(url: url, headers: [("User-Agent", BTCPriceVersion.userAgent)])
  }
}

/// Maps Binance's `{"symbol":"BTCUSDT","price":"114721.34000000"}` to a price (USDT taken as USD).
public enum BinancePriceMapper {
  public static func map(_ response: HTTPResponse) throws(PriceSourceError) -> Decimal {
    guard response.status == 200 else {
      throw .httpStatus(response.status, message: errorMessage(in: response.body))
    }
    let json: JSONValue
    do {
      json = try JSONValue.parse(response.body)
    } catch {
      throw .invalidData(error.description)
    }
    guard let symbol = json["symbol"]?.stringValue else { throw .invalidData("no symbol") }
    guard symbol == "BTCUSDT" else {
      throw .invalidData("symbol is \(symbol.prefix(20)), not BTCUSDT")
    }
    guard let text = json["price"]?.stringValue else { throw .invalidData("price is not a string") }
    return try PositivePrice.parse(text)
  }

  /// Binance errors look like `{"code":-1121,"msg":"Invalid symbol."}`.
  private static func errorMessage(in body: Data) -> String? {
    (try? JSONValue.parse(body))?["msg"]?.stringValue.map(PositivePrice.excerpt)
  }
}
