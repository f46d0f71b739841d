import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension PriceSourceDefinition {
  /// Kraken's public ticker: `GET /0/public/Ticker?pair=XBTUSD`. Keyless; wants a User-Agent.
  public static let kraken = PriceSourceDefinition(
    source: PriceSource(id: "kraken", displayName: "Kraken"),
    defaultURL: URL(string: "https://api.kraken.com/0/public/Ticker?pair=XBTUSD")!,
    // Kraken answers under its own name for the pair: `XXBTZEUR` for `XBTEUR`, but `XBTAUD` and
    // `XBTCHF` for the pairs it listed later. Both names are accepted.
    markets: [
      .usd: MarketPair(request: "XBTUSD", answers: ["XXBTZUSD", "XBTUSD"]),
      .eur: MarketPair(request: "XBTEUR", answers: ["XXBTZEUR", "XBTEUR"]),
      .gbp: MarketPair(request: "XBTGBP", answers: ["XXBTZGBP", "XBTGBP"]),
      .jpy: MarketPair(request: "XBTJPY", answers: ["XXBTZJPY", "XBTJPY"]),
      .cad: MarketPair(request: "XBTCAD", answers: ["XXBTZCAD", "XBTCAD"]),
      .aud: MarketPair(request: "XBTAUD", answers: ["XBTAUD"]),
      .chf: MarketPair(request: "XBTCHF", answers: ["XBTCHF"]),
    ],
    pairPlacement: .query("pair"),
    map: { response, pair throws(PriceSourceError) in
      try KrakenMapper.map(response, pair: pair)
    },
    stream: .kraken, candles: .kraken)
}

/// Maps `{"error":[],"result":{"XXBTZUSD":{"c":["68870.10","0.001"],...}}}` to the last trade's
/// price.
///
/// The result key is Kraken's own name for the pair (`XXBTZUSD` for `XBTUSD`), so the mapper takes
/// the single entry and checks that its name is one of the names of the pair asked for. Errors
/// come in `error`, usually with HTTP 200.
public enum KrakenMapper {
  /// The last trade of the pair asked for; a result under any other pair's name is invalid data.
  public static func map(_ response: BTCHTTPResponse, pair: MarketPair) throws(PriceSourceError)
    -> Decimal
  {
    let json = try SourceAnswer.json(
      response, from: .kraken, errorMessage: errorMessage, bodyError: bodyError)
    guard let result = json["result"]?.objectValue else { throw .invalidData("no result object") }
    guard result.count == 1, let (key, ticker) = result.first else {
      throw .invalidData("result has \(result.count) pairs, expected one")
    }
    guard pair.answers.contains(key) else {
      throw .invalidData("pair \(UntrustedText.excerpt(key)) is not \(pair.request)")
    }
    guard let text = ticker["c"]?.arrayValue?.first?.stringValue else {
      throw .invalidData("no last trade price (c[0]) in \(UntrustedText.excerpt(key))")
    }
    return try PositivePrice.parse(string: text)
  }

  static func errorMessage(in json: JSONValue) -> String? {
    let errors = json["error"]?.arrayValue?.compactMap(\.stringValue) ?? []
    return errors.isEmpty ? nil : errors.joined(separator: "; ")
  }

  /// "EAPI:Rate limit exceeded", "EGeneral:Too many requests": a rate limit, said in the body.
  static func bodyError(_ message: String) -> PriceSourceError {
    let lowered = message.lowercased()
    if lowered.contains("rate limit") || lowered.contains("too many requests") {
      return .rateLimited(status: nil, retryAfter: nil, message: message)
    }
    return .invalidData("Kraken error: \(message)")
  }
}
