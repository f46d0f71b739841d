import BTCPriceCore
import Foundation

/// CryptoCompare's aggregate price: `GET /data/generateAvg?fsym=BTC&tsym=USD&e=coinbase`.
public enum CryptoCompareEndpoint {
  public static let defaultURL = URL(
    string: "https://min-api.cryptocompare.com/data/generateAvg?fsym=BTC&tsym=USD&e=coinbase")!

  /// Sends `Authorization: Apikey <key>` when a key is given. The key goes to this request only.
  public static func request(url: URL = defaultURL, apiKey: String? = nil) -> HTTPRequest {
    var headers = [(name: "User-Agent", value: BTCPriceVersion.userAgent)]
    if let apiKey, !apiKey.isEmpty {
      headers.append((name: "Authorization", value: "Apikey \(apiKey)"))
    }
    return HTTPRequest(url: url, headers: headers)
  }
}

/// Maps `{"RAW":{"PRICE":68910.12,"FROMSYMBOL":"BTC","TOSYMBOL":"USD",...}}` to a price, reading
/// `PRICE` from its literal text so that it stays exact.
public enum CryptoCompareMapper {
  public static func map(_ response: HTTPResponse) throws(PriceSourceError) -> Decimal {
    let json: JSONValue
    do {
      json = try JSONValue.parse(response.body)
    } catch {
      guard response.status == 200 else { throw .httpStatus(response.status, message: nil) }
      throw .invalidData(error.description)
    }
    if let message = errorMessage(in: json) {
      throw response.status == 200
        ? .invalidData("CryptoCompare error: \(message)")
        : .httpStatus(response.status, message: message)
    }
    guard response.status == 200 else { throw .httpStatus(response.status, message: nil) }
    guard let raw = json["RAW"]?.objectValue else { throw .invalidData("no RAW object") }
    guard raw["FROMSYMBOL"]?.stringValue == "BTC", raw["TOSYMBOL"]?.stringValue == "USD" else {
      throw .invalidData("RAW is not a BTC/USD price")
    }
    guard let text = raw["PRICE"]?.numberText else {
      throw .invalidData("RAW.PRICE is not a number")
    }
    return try PositivePrice.parse(text)
  }

  /// The two error shapes: `{"Response":"Error","Message":"..."}` (often with HTTP 200) and
  /// `{"Data":{},"Err":{"type":2,"message":"API key required..."}}` (with 401).
  private static func errorMessage(in json: JSONValue) -> String? {
    if json["Response"]?.stringValue == "Error" {
      return PositivePrice.excerpt(json["Message"]?.stringValue ?? "unknown error")
    }
    if let err = json["Err"]?.objectValue, !err.isEmpty {
      return PositivePrice.excerpt(err["message"]?.stringValue ?? "unknown error")
    }
    return nil
  }
}
