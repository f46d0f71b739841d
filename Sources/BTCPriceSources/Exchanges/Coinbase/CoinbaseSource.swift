import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension PriceSourceDefinition {
  /// Coinbase's spot price: `GET /v2/prices/BTC-USD/spot`. Keyless.
  public static let coinbase = PriceSourceDefinition(
    source: PriceSource(id: "coinbase", displayName: "Coinbase"),
    defaultURL: URL(string: "https://api.coinbase.com/v2/prices/BTC-USD/spot")!,
    // Coinbase prices BTC in every fiat currency it knows, from its exchange rates.
    markets: Dictionary(
      uniqueKeysWithValues: Currency.supported.map {
        ($0, MarketPair(request: "BTC-\($0.code)", answers: [$0.code]))
      }),
    pairPlacement: .pathSegment(separator: "-"),
    map: { response, pair throws(PriceSourceError) in
      try CoinbaseMapper.map(response, pair: pair)
    },
    stream: .coinbase, candles: .coinbase)
}

/// Maps `{"data":{"amount":"68880.55","base":"BTC","currency":"USD"}}` to a price.
public enum CoinbaseMapper {
  /// The price in the currency asked for; a price in any other currency is invalid data.
  public static func map(_ response: BTCHTTPResponse, pair: MarketPair) throws(PriceSourceError)
    -> Decimal
  {
    let json = try SourceAnswer.json(response, from: .coinbase, errorMessage: errorMessage)
    guard let data = json["data"]?.objectValue else { throw .invalidData("no data object") }
    guard data["base"]?.stringValue == "BTC",
      let currency = data["currency"]?.stringValue, pair.answers.contains(currency)
    else {
      throw .invalidData("data is not a \(pair.request.replacing("-", with: "/")) price")
    }
    guard let text = data["amount"]?.stringValue else {
      throw .invalidData("data.amount is not a string")
    }
    return try PositivePrice.parse(string: text)
  }

  /// Coinbase errors look like `{"errors":[{"id":"rate_limit_exceeded","message":"..."}]}`.
  private static func errorMessage(in json: JSONValue) -> String? {
    guard let first = json["errors"]?.arrayValue?.first else { return nil }
    return first["message"]?.stringValue ?? first["id"]?.stringValue ?? "unknown error"
  }
}
