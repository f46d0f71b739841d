import BTCPriceCore
import Foundation

/// Bitstamp's ticker: `GET /api/v2/ticker/btcusd/`. Keyless.
public enum BitstampEndpoint {
  public static let defaultURL = URL(string: "https://www.bitstamp.net/api/v2/ticker/btcusd/")!

  public static func request(url: URL = defaultURL) -> HTTPRequest {
    HTTPRequest(url: url, headers: [("User-Agent", BTCPriceVersion.userAgent)])
  }
}

/// Maps `{"last":"68875.00","timestamp":"1763800000",...}` (every field a string) to the last
/// trade's price.
public enum BitstampMapper {
  public static func map(_ response: HTTPResponse) throws(PriceSourceError) -> Decimal {
    let json = try? JSONValue.parse(response.body)
    guard response.status == 200 else {
      throw .httpStatus(response.status, message: json.flatMap(errorMessage))
    }
    guard let json else { throw .invalidData("body is not JSON") }
    if let message = errorMessage(in: json) { throw .invalidData("Bitstamp error: \(message)") }
    guard let text = json["last"]?.stringValue else { throw .invalidData("last is not a string") }
    return try PositivePrice.parse(text)
  }

  /// Bitstamp errors look like `{"status":"error","reason":"...","code":"..."}`, or
  /// `{"message":"..."}` from its gateway.
  private static func errorMessage(in json: JSONValue) -> String? {
    if json["status"]?.stringValue == "error" {
      let reason = json["reason"]?.stringValue ?? json["code"]?.stringValue ?? "unknown error"
      return PositivePrice.excerpt(reason)
    }
    return json["message"]?.stringValue.map(PositivePrice.excerpt)
  }
}
