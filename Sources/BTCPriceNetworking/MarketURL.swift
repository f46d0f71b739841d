import BTCPriceCore
import Foundation

/// Builds each source's request URL for a currency from a base URL: the source's default, or a
/// user's `--<source>-url`.
///
/// The base is taken whole (scheme, host, port, path, other query items), and only its pair part
/// is set from the currency: Binance's `symbol=`, CryptoCompare's `tsym=`, Kraken's `pair=`,
/// Coinbase's `BTC-XXX` path segment, Bitstamp's `btcxxx` path segment. A base that already names
/// the wanted pair is returned untouched, byte for byte, so every USD URL stays as it was.
public enum MarketURL {
  public enum Failure: Error, Equatable, CustomStringConvertible {
    /// The source has no pair for this currency.
    case notServed(sourceID: String, currency: Currency)
    /// The base URL has no part that names a pair, so the currency cannot be set in it.
    case noPairPart(sourceID: String, expected: String)

    public var description: String {
      switch self {
      case .notServed(let sourceID, let currency):
        return "\(sourceID) has no BTC/\(currency.code) market"
      case .noPairPart(let sourceID, let expected):
        return "the \(sourceID) URL has no \(expected) to set the currency in"
      }
    }
  }

  /// The URL that asks `sourceID` for BTC in `currency`, built from `base`.
  ///
  /// A base without a pair part is returned as it is for the pair it was written for (USD, the
  /// currency of every default), and refused for any other currency: asking such a URL would get
  /// USD prices that the mapper rejects on every tick.
  public static func url(sourceID: String, currency: Currency, base: URL) throws(Failure) -> URL {
    guard let pair = CurrencyMarkets.pair(sourceID: sourceID, currency: currency) else {
      throw .notServed(sourceID: sourceID, currency: currency)
    }
    let rewritten: URL?
    let expected: String
    switch sourceID {
    case "binance":
      (rewritten, expected) = (settingQuery("symbol", to: pair.request, in: base), "symbol=")
    case "cryptocompare":
      (rewritten, expected) = (settingQuery("tsym", to: pair.request, in: base), "tsym=")
    case "kraken":
      (rewritten, expected) = (settingQuery("pair", to: pair.request, in: base), "pair=")
    case "coinbase":
      (rewritten, expected) = (
        settingPathSegment(matching: #/^[Bb][Tt][Cc]-[A-Za-z]{3,5}$/#, to: pair.request, in: base),
        "BTC-XXX path segment"
      )
    case "bitstamp":
      (rewritten, expected) = (
        settingPathSegment(matching: #/^[Bb][Tt][Cc][A-Za-z]{3,5}$/#, to: pair.request, in: base),
        "btcxxx path segment"
      )
    default:
      throw .notServed(sourceID: sourceID, currency: currency)
    }
    if let rewritten { return rewritten }
    guard currency == .usd else { throw .noPairPart(sourceID: sourceID, expected: expected) }
    return base
  }

  /// `base` with the query item `name` set to `value`; nil when it has no such item.
  private static func settingQuery(_ name: String, to value: String, in base: URL) -> URL? {
    guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false),
      var items = components.percentEncodedQueryItems,
      let index = items.firstIndex(where: { $0.name == name })
    else { return nil }
    guard items[index].value != value else { return base }
    items[index].value = value
    components.percentEncodedQueryItems = items
    return components.url
  }

  /// `base` with its last path segment that matches `pattern` replaced by `value`; nil when no
  /// segment matches.
  private static func settingPathSegment(
    matching pattern: Regex<Substring>, to value: String, in base: URL
  ) -> URL? {
    guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else {
      return nil
    }
    var segments = components.percentEncodedPath.split(
      separator: "/", omittingEmptySubsequences: false
    ).map(String.init)
    guard let index = segments.lastIndex(where: { $0.wholeMatch(of: pattern) != nil }) else {
      return nil
    }
    guard segments[index] != value else { return base }
    segments[index] = value
    components.percentEncodedPath = segments.joined(separator: "/")
    return components.url
  }
}
