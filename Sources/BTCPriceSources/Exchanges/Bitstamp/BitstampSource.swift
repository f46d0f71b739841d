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
      .usd: MarketPair(request: "btcusd", answers: ["BTC/USD"]),
      .eur: MarketPair(request: "btceur", answers: ["BTC/EUR"]),
      .gbp: MarketPair(request: "btcgbp", answers: ["BTC/GBP"]),
    ],
    pairPlacement: .pathSegment(separator: ""),
    map: { response, pair throws(PriceSourceError) in
      try BitstampMapper.map(response, pair: pair)
    },
    stream: .bitstamp, candles: .bitstamp)
}

/// Maps `{"timestamp":"1763800000","last":"68875.00",…,"market_type":"SPOT","pair":"BTC/USD",
/// "market":"BTC/USD"}` (every field a string) to the last trade's price.
public enum BitstampMapper {
  /// The last trade of the pair asked for. The answer names its pair in `pair` (Bitstamp's
  /// documented example; a recorded answer of Sep 2026 carries it) and again in `market`: `pair`
  /// must be there and be ours, and so must `market` when it is there. Another pair's answer
  /// (`ETH/USD`, `BTC/EUR`, the perpetual `BTC/USD-PERP`) is invalid data, never a price.
  public static func map(_ response: BTCHTTPResponse, pair: MarketPair) throws(PriceSourceError)
    -> Decimal
  {
    let json = try SourceAnswer.json(response, from: .bitstamp, errorMessage: errorMessage)
    try expect(json["pair"], in: "pair", naming: pair)
    if let market = json["market"] { try expect(market, in: "market", naming: pair) }
    guard let text = json["last"]?.stringValue else { throw .invalidData("last is not a string") }
    return try PositivePrice.parse(string: text)
  }

  /// `value` is a string that names `pair` (`BTC/USD`), else invalid data naming `field`.
  private static func expect(_ value: JSONValue?, in field: String, naming pair: MarketPair)
    throws(PriceSourceError)
  {
    let expected = pair.answers.sorted().joined(separator: " or ")
    guard let value else { throw .invalidData("no \(field), expected \(expected)") }
    guard let named = value.stringValue else { throw .invalidData("\(field) is not a string") }
    guard pair.answers.contains(named) else {
      throw .invalidData("\(field) \(UntrustedText.excerpt(named)) is not \(expected)")
    }
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
