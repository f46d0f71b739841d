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
    map: KrakenMapper.map)
}

/// Maps `{"error":[],"result":{"XXBTZUSD":{"c":["68870.10","0.001"],...}}}` to the last trade's
/// price.
///
/// The result key is Kraken's own name for the pair (`XXBTZUSD` for `XBTUSD`), so the mapper takes
/// the single entry and checks that its name is a BTC/USD pair. Errors come in `error`, usually
/// with HTTP 200.
public enum KrakenMapper {
  public static func map(_ response: HTTPResponse) throws(PriceSourceError) -> Decimal {
    let json = try SourceAnswer.json(
      response, source: "Kraken", errorMessage: errorMessage, bodyError: bodyError)
    guard let result = json["result"]?.objectValue else { throw .invalidData("no result object") }
    guard result.count == 1, let (pair, ticker) = result.first else {
      throw .invalidData("result has \(result.count) pairs, expected one")
    }
    let name = pair.uppercased()
    guard name.hasSuffix("USD"), name.contains("XBT") || name.contains("BTC") else {
      throw .invalidData("pair \(UntrustedText.excerpt(pair)) is not BTC/USD")
    }
    guard let text = ticker["c"]?.arrayValue?.first?.stringValue else {
      throw .invalidData("no last trade price (c[0]) in \(UntrustedText.excerpt(pair))")
    }
    return try PositivePrice.parse(text)
  }

  private static func errorMessage(in json: JSONValue) -> String? {
    let errors = json["error"]?.arrayValue?.compactMap(\.stringValue) ?? []
    return errors.isEmpty ? nil : errors.joined(separator: "; ")
  }

  /// "EAPI:Rate limit exceeded", "EGeneral:Too many requests": a rate limit, said in the body.
  private static func bodyError(_ message: String) -> PriceSourceError {
    let lowered = message.lowercased()
    if lowered.contains("rate limit") || lowered.contains("too many requests") {
      return .rateLimited(status: nil, retryAfter: nil, message: message)
    }
    return .invalidData("Kraken error: \(message)")
  }
}
