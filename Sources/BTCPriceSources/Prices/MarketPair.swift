import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How one source names BTC in one currency.
public struct MarketPair: Hashable, Sendable {
  /// What the request names: Binance's `symbol=BTCEUR`, Coinbase's `BTC-EUR` path segment,
  /// Kraken's `pair=XBTEUR`, Bitstamp's `btceur` path segment, CryptoCompare's `tsym=EUR`.
  public let request: String
  /// What a valid answer names, where the answer names its pair: Binance's `symbol`, Kraken's
  /// result keys (`XXBTZEUR` for a request of `XBTEUR`), Coinbase's `currency`, CryptoCompare's
  /// `TOSYMBOL`. Empty for Bitstamp, whose answer does not say.
  public let answers: Set<String>

  public init(request: String, answers: Set<String>) {
    self.request = request
    self.answers = answers
  }
}

/// Where a source's URL names the pair, so that a URL (the real one, or a user's `--<source>-url`)
/// can be pointed at another currency by changing that part alone.
public enum PairPlacement: Sendable {
  /// A query item: Binance's `symbol=`, Kraken's `pair=`, CryptoCompare's `tsym=`.
  case query(String)
  /// A path segment `BTC` + separator + currency: Coinbase's `BTC-USD` (separator `-`),
  /// Bitstamp's `btcusd` (no separator), in any letter case.
  case pathSegment(separator: String)

  /// What a person must look for in a URL, for error messages: `pair=`, `BTC-XXX path segment`.
  var expected: String {
    switch self {
    case .query(let name): "\(name)="
    case .pathSegment(let separator): "BTC\(separator)XXX path segment"
    }
  }

  /// `base` with its pair part set to `value`; nil when it has no pair part. A base that already
  /// names `value` comes back untouched, byte for byte.
  func url(_ base: URL, settingPairTo value: String) -> URL? {
    guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else {
      return nil
    }
    switch self {
    case .query(let name):
      guard var items = components.percentEncodedQueryItems,
        let index = items.firstIndex(where: { $0.name == name })
      else { return nil }
      guard items[index].value != value else { return base }
      items[index].value = value
      components.percentEncodedQueryItems = items
    case .pathSegment(let separator):
      var segments = components.percentEncodedPath.split(
        separator: "/", omittingEmptySubsequences: false
      ).map(String.init)
      guard let index = segments.lastIndex(where: { Self.isPair($0, separator: separator) })
      else { return nil }
      guard segments[index] != value else { return base }
      segments[index] = value
      components.percentEncodedPath = segments.joined(separator: "/")
    }
    return components.url
  }

  /// `btc-usd`, `BTCEUR`: BTC, the separator, then 3 to 5 letters.
  private static func isPair(_ segment: String, separator: String) -> Bool {
    let lowered = segment.lowercased()
    guard lowered.hasPrefix("btc" + separator) else { return false }
    let currency = lowered.dropFirst(3 + separator.count)
    return (3...5).contains(currency.count) && currency.allSatisfy { ("a"..."z").contains($0) }
  }
}
