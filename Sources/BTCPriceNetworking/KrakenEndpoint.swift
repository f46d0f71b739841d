import BTCPriceCore
import Foundation

/// Kraken's public ticker: `GET /0/public/Ticker?pair=XBTUSD`. Keyless; wants a User-Agent.
public enum KrakenEndpoint {
  public static let defaultURL = URL(string: "https://api.kraken.com/0/public/Ticker?pair=XBTUSD")!

  public static func request(url: URL = defaultURL) -> HTTPRequest {
    HTTPRequest(url: url, headers: [("User-Agent", BTCPriceVersion.userAgent)])
  }
}

/// Maps `{"error":[],"result":{"XXBTZUSD":{"c":["68870.10","0.001"],...}}}` to the last trade's
/// price.
///
/// The result key is Kraken's own name for the pair (`XXBTZUSD` for `XBTUSD`), so the mapper takes
/// the single entry and checks that its name is a BTC/USD pair. Errors come in `error`, usually
/// with HTTP 200.
public enum KrakenMapper {
  public static func map(_ response: HTTPResponse) throws(PriceSourceError) -> Decimal {
    let json = try? JSONValue.parse(response.body)
    let errors = json?["error"]?.arrayValue?.compactMap(\.stringValue) ?? []
    let message = errors.isEmpty ? nil : PositivePrice.excerpt(errors.joined(separator: "; "))
    guard response.status == 200 else { throw .httpStatus(response.status, message: message) }
    if let message {
      // "EAPI:Rate limit exceeded", "EGeneral:Too many requests": a rate limit, said in the body.
      let lowered = message.lowercased()
      if lowered.contains("rate limit") || lowered.contains("too many requests") {
        throw .rateLimited(status: nil, retryAfter: nil, message: message)
      }
      throw .invalidData("Kraken error: \(message)")
    }
    guard let result = json?["result"]?.objectValue else { throw .invalidData("no result object") }
    guard result.count == 1, let (pair, ticker) = result.first else {
      throw .invalidData("result has \(result.count) pairs, expected one")
    }
    let name = pair.uppercased()
    guard name.hasSuffix("USD"), name.contains("XBT") || name.contains("BTC") else {
      throw .invalidData("pair \(PositivePrice.excerpt(pair)) is not BTC/USD")
    }
    guard let text = ticker["c"]?.arrayValue?.first?.stringValue else {
      throw .invalidData("no last trade price (c[0]) in \(PositivePrice.excerpt(pair))")
    }
    return try PositivePrice.parse(text)
  }
}
