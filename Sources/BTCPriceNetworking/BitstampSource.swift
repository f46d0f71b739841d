import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension PriceSourceDefinition {
  /// Bitstamp's ticker: `GET /api/v2/ticker/btcusd/`. Keyless.
  public static let bitstamp = PriceSourceDefinition(
    source: PriceSource(id: "bitstamp", displayName: "Bitstamp"),
    defaultURL: URL(string: "https://www.bitstamp.net/api/v2/ticker/btcusd/")!,
    markets: [
      .usd: MarketPair(request: "btcusd", answers: []),
      .eur: MarketPair(request: "btceur", answers: []),
      .gbp: MarketPair(request: "btcgbp", answers: []),
    ],
    pairPlacement: .pathSegment(separator: ""),
    map: { response, pair throws(PriceSourceError) in
      try BitstampMapper.map(response, pair: pair)
    },
    stream: .bitstamp, candles: .bitstamp)
}

/// Maps `{"last":"68875.00","timestamp":"1763800000",...}` (every field a string) to the last
/// trade's price.
public enum BitstampMapper {
  /// Bitstamp's answer does not name its pair, so `pair` cannot be checked: the URL alone decides
  /// the currency (see ``PriceSourceDefinition/url(for:base:)``).
  public static func map(_ response: BTCHTTPResponse, pair: MarketPair) throws(PriceSourceError)
    -> Decimal
  {
    let json = try SourceAnswer.json(response, from: .bitstamp, errorMessage: errorMessage)
    guard let text = json["last"]?.stringValue else { throw .invalidData("last is not a string") }
    return try PositivePrice.parse(text)
  }

  /// Bitstamp errors look like `{"status":"error","reason":"...","code":"..."}`, or
  /// `{"message":"..."}` from its gateway.
  static func errorMessage(in json: JSONValue) -> String? {
    if json["status"]?.stringValue == "error" {
      return json["reason"]?.stringValue ?? json["code"]?.stringValue ?? "unknown error"
    }
    return json["message"]?.stringValue
  }
}
