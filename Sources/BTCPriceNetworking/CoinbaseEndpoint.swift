import BTCPriceCore
import Foundation

/// Coinbase's spot price: `GET /v2/prices/BTC-USD/spot`. Keyless.
public enum CoinbaseEndpoint {
  public static let defaultURL = URL(string: "https://api.coinbase.com/v2/prices/BTC-USD/spot")!

  public static func request(url: URL = defaultURL) -> HTTPRequest {
    HTTPRequest(url: url, headers: [("User-Agent", BTCPriceVersion.userAgent)])
  }
}

/// Maps `{"data":{"amount":"68880.55","base":"BTC","currency":"USD"}}` to a price.
public enum CoinbaseMapper {
  public static func map(_ response: HTTPResponse) throws(PriceSourceError) -> Decimal {
    let json = try? JSONValue.parse(response.body)
    guard response.status == 200 else {
      throw .httpStatus(response.status, message: json.flatMap(errorMessage))
    }
    guard let json else { throw .invalidData("body is not JSON") }
    if let message = errorMessage(in: json) { throw .invalidData("Coinbase error: \(message)") }
    guard let data = json["data"]?.objectValue else { throw .invalidData("no data object") }
    guard data["base"]?.stringValue == "BTC", data["currency"]?.stringValue == "USD" else {
      throw .invalidData("data is not a BTC/USD price")
    }
    guard let text = data["amount"]?.stringValue else {
      throw .invalidData("data.amount is not a string")
    }
    return try PositivePrice.parse(text)
  }

  /// Coinbase errors look like `{"errors":[{"id":"rate_limit_exceeded","message":"..."}]}`.
  private static func errorMessage(in json: JSONValue) -> String? {
    guard let first = json["errors"]?.arrayValue?.first else { return nil }
    let text = first["message"]?.stringValue ?? first["id"]?.stringValue ?? "unknown error"
    return PositivePrice.excerpt(text)
  }
}
