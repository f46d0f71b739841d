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
    map: BinanceMapper.map,
    specificAdvice: { status, pause, _ in
      guard status == 451 else { return nil }
      return "binance refuses requests from this location (HTTP 451); \(pause). In the US, use "
        + "Binance.US: --binance-url 'https://api.binance.us/api/v3/ticker/price?symbol=BTCUSDT'"
    })
}

/// Maps Binance's `{"symbol":"BTCUSDT","price":"114721.34000000"}` to a price (USDT taken as USD).
public enum BinanceMapper {
  public static func map(_ response: HTTPResponse) throws(PriceSourceError) -> Decimal {
    let json = try SourceAnswer.json(response, source: "Binance", errorMessage: errorMessage)
    guard let symbol = json["symbol"]?.stringValue else { throw .invalidData("no symbol") }
    guard symbol == "BTCUSDT" else {
      throw .invalidData("symbol is \(UntrustedText.excerpt(symbol)), not BTCUSDT")
    }
    guard let text = json["price"]?.stringValue else { throw .invalidData("price is not a string") }
    return try PositivePrice.parse(text)
  }

  /// Binance errors look like `{"code":-1121,"msg":"Invalid symbol."}`.
  private static func errorMessage(in json: JSONValue) -> String? {
    json["msg"]?.stringValue
  }
}
