import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension PriceSourceDefinition {
  /// Binance's spot ticker, the primary source: `GET /api/v3/ticker/price?symbol=BTCUSDT`.
  /// USDT is shown as USD (1:1).
  public static let binance = PriceSourceDefinition(
    source: PriceSource(id: "binance", displayName: "Binance"),
    defaultURL: URL(string: "https://api.binance.com/api/v3/ticker/price?symbol=BTCUSDT")!,
    markets: [
      // Binance has no USD market; USDT (Tether) is shown as USD, 1:1.
      .usd: MarketPair(request: "BTCUSDT", answers: ["BTCUSDT"]),
      .eur: MarketPair(request: "BTCEUR", answers: ["BTCEUR"]),
      .jpy: MarketPair(request: "BTCJPY", answers: ["BTCJPY"]),
    ],
    pairPlacement: .query("symbol"),
    map: { response, pair throws(PriceSourceError) in
      try BinanceMapper.map(response, pair: pair)
    },
    specificAdvice: { status, evidence, pause, _ in
      guard status == 451 else { return nil }
      return "binance refuses requests from this location (\(evidence)); \(pause). In the US, use "
        + "Binance.US: --binance-url 'https://api.binance.us/api/v3/ticker/price?symbol=BTCUSDT'"
    },
    stream: .binance, candles: .binance)
}

/// Maps Binance's `{"symbol":"BTCUSDT","price":"114721.34000000"}` to a price (USDT taken as USD).
public enum BinanceMapper {
  /// The price of the pair asked for; an answer for any other symbol is invalid data.
  public static func map(_ response: BTCHTTPResponse, pair: MarketPair) throws(PriceSourceError)
    -> Decimal
  {
    let json = try SourceAnswer.json(response, from: .binance, errorMessage: errorMessage)
    guard let symbol = json["symbol"]?.stringValue else { throw .invalidData("no symbol") }
    guard pair.answers.contains(symbol) else {
      throw .invalidData("symbol is \(UntrustedText.excerpt(symbol)), not \(pair.request)")
    }
    guard let text = json["price"]?.stringValue else { throw .invalidData("price is not a string") }
    return try PositivePrice.parse(string: text)
  }

  /// Binance errors look like `{"code":-1121,"msg":"Invalid symbol."}`.
  private static func errorMessage(in json: JSONValue) -> String? {
    json["msg"]?.stringValue
  }
}
