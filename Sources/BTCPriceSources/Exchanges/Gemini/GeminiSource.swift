import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension PriceSourceDefinition {
  /// Gemini's public ticker: `GET /v1/pubticker/btcusd`. Keyless; a US exchange quoting true USD
  /// (Binance's primary market is USDT). Its public endpoints allow 120 requests a minute and it
  /// asks for at most one a second (429 beyond), which is why it is last in the default chain:
  /// at one request a second it is asked at its ceiling, so only when every other source failed
  /// (docs/CURRENCIES.md).
  public static let gemini = PriceSourceDefinition(
    source: PriceSource(id: "gemini", displayName: "Gemini"),
    defaultURL: URL(string: "https://api.gemini.com/v1/pubticker/btcusd")!,
    // The answer names its quote currency only as a key of its `volume` object.
    markets: [.usd: MarketPair(request: "btcusd", answers: ["USD"])],
    pairPlacement: .pathSegment(separator: ""),
    map: { response, pair throws(PriceSourceError) in
      try GeminiMapper.map(response, pair: pair)
    })
}

/// Maps `{"bid":"977.59","ask":"977.35","last":"977.65","volume":{"BTC":"2210.50","USD":
/// "2135477.46","timestamp":1483018200000}}` (prices are strings) to the last trade's price.
public enum GeminiMapper {
  /// The last trade's price, when the answer is for BTC in the currency asked for: its `volume`
  /// object names both, and an answer for another pair is invalid data.
  public static func map(_ response: BTCHTTPResponse, pair: MarketPair) throws(PriceSourceError)
    -> Decimal
  {
    let json = try SourceAnswer.json(response, from: .gemini, errorMessage: errorMessage)
    guard let volume = json["volume"]?.objectValue else { throw .invalidData("no volume object") }
    guard volume["BTC"] != nil, pair.answers.contains(where: { volume[$0] != nil }) else {
      throw .invalidData("volume is not for \(pair.request)")
    }
    guard let text = json["last"]?.stringValue else { throw .invalidData("last is not a string") }
    return try PositivePrice.parse(string: text)
  }

  /// Gemini errors look like `{"result":"error","reason":"InvalidSymbol","message":"..."}`.
  private static func errorMessage(in json: JSONValue) -> String? {
    guard json["result"]?.stringValue == "error" else { return nil }
    return json["message"]?.stringValue ?? json["reason"]?.stringValue ?? "unknown error"
  }
}
