import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension PriceSourceDefinition {
  /// CryptoCompare's aggregate price, the specified fallback:
  /// `GET /data/generateAvg?fsym=BTC&tsym=USD&e=coinbase`. Needs an API key since May 2026.
  public static let cryptoCompare = PriceSourceDefinition(
    source: PriceSource(id: "cryptocompare", displayName: "CryptoCompare"),
    defaultURL: URL(
      string: "https://min-api.cryptocompare.com/data/generateAvg?fsym=BTC&tsym=USD&e=coinbase")!,
    apiKey: APIKeyUse(
      header: "Authorization", prefix: "Apikey ", environmentVariable: "CRYPTOCOMPARE_API_KEY"),
    markets: [
      .usd: MarketPair(request: "USD", answers: ["USD"]),
      .eur: MarketPair(request: "EUR", answers: ["EUR"]),
    ],
    pairPlacement: .query("tsym"),
    map: { response, pair throws(PriceSourceError) in
      try CryptoCompareMapper.map(response, pair: pair)
    },
    specificAdvice: { status, evidence, pause, apiKeyGiven in
      guard status == 401 else { return nil }
      return apiKeyGiven
        ? "cryptocompare rejected the key in CRYPTOCOMPARE_API_KEY (\(evidence)); \(pause)."
        : "cryptocompare needs an API key since May 2026 (\(evidence)); \(pause). To use it, "
          + "set CRYPTOCOMPARE_API_KEY to a key from https://www.cryptocompare.com/cryptopian/api-keys"
    })
}

/// Maps `{"RAW":{"PRICE":68910.12,"FROMSYMBOL":"BTC","TOSYMBOL":"USD",...}}` to a price, reading
/// `PRICE` from its literal text so that it stays exact.
public enum CryptoCompareMapper {
  /// The price in the currency asked for (`TOSYMBOL`); any other currency is invalid data.
  public static func map(_ response: BTCHTTPResponse, pair: MarketPair) throws(PriceSourceError)
    -> Decimal
  {
    let json = try SourceAnswer.json(
      response, from: .cryptoCompare, errorMessage: errorMessage, bodyError: bodyError)
    guard let raw = json["RAW"]?.objectValue else { throw .invalidData("no RAW object") }
    guard raw["FROMSYMBOL"]?.stringValue == "BTC",
      let currency = raw["TOSYMBOL"]?.stringValue, pair.answers.contains(currency)
    else {
      throw .invalidData("RAW is not a BTC/\(pair.request) price")
    }
    guard let text = raw["PRICE"]?.numberText else {
      throw .invalidData("RAW.PRICE is not a number")
    }
    return try PositivePrice.parse(number: text)
  }

  /// CryptoCompare has long sent its errors with HTTP 200. Without a key it says "You need a valid
  /// auth key or api key to access this endpoint" (`Type` 1): a refusal, like a 401. Over the
  /// limit it says "You are over your rate limit…" (`Type` 99): a rate limit.
  private static func bodyError(_ message: String) -> PriceSourceError {
    let lowered = message.lowercased()
    if lowered.contains("auth key") || lowered.contains("api key") {
      return .refused(message)
    }
    if lowered.contains("rate limit") {
      return .rateLimited(status: nil, retryAfter: nil, message: message)
    }
    return .invalidData(
      "\(PriceSourceDefinition.cryptoCompare.source.displayName) error: \(message)")
  }

  /// The two error shapes: `{"Response":"Error","Message":"..."}` (often with HTTP 200) and
  /// `{"Data":{},"Err":{"type":2,"message":"API key required..."}}` (with 401).
  private static func errorMessage(in json: JSONValue) -> String? {
    if json["Response"]?.stringValue == "Error" {
      return json["Message"]?.stringValue ?? "unknown error"
    }
    if let err = json["Err"]?.objectValue, !err.isEmpty {
      return err["message"]?.stringValue ?? "unknown error"
    }
    return nil
  }
}
