import BTCPriceCore

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

/// Which source serves which currency, and under which pair name: the one table `--help`,
/// `--verbose`, the request builders and the mappers all read.
///
/// Only pairs confirmed in public material are listed (docs/CURRENCIES.md has each fact and where
/// it was found). A source without a pair for a currency is left out of the chain for it.
public enum CurrencyMarkets {
  public static let binance: [Currency: MarketPair] = [
    // Binance has no USD market; USDT (Tether) is shown as USD, as before.
    .usd: MarketPair(request: "BTCUSDT", answers: ["BTCUSDT"]),
    .eur: MarketPair(request: "BTCEUR", answers: ["BTCEUR"]),
    .jpy: MarketPair(request: "BTCJPY", answers: ["BTCJPY"]),
  ]

  public static let cryptoCompare: [Currency: MarketPair] = [
    .usd: MarketPair(request: "USD", answers: ["USD"]),
    .eur: MarketPair(request: "EUR", answers: ["EUR"]),
  ]

  public static let coinbase: [Currency: MarketPair] = Dictionary(
    uniqueKeysWithValues: Currency.supported.map {
      ($0, MarketPair(request: "BTC-\($0.code)", answers: [$0.code]))
    })

  /// Kraken answers under its own name for the pair: `XXBTZEUR` for `XBTEUR`, but `XBTAUD` and
  /// `XBTCHF` for the pairs it listed later. Both names are accepted.
  public static let kraken: [Currency: MarketPair] = [
    .usd: MarketPair(request: "XBTUSD", answers: ["XXBTZUSD", "XBTUSD"]),
    .eur: MarketPair(request: "XBTEUR", answers: ["XXBTZEUR", "XBTEUR"]),
    .gbp: MarketPair(request: "XBTGBP", answers: ["XXBTZGBP", "XBTGBP"]),
    .jpy: MarketPair(request: "XBTJPY", answers: ["XXBTZJPY", "XBTJPY"]),
    .cad: MarketPair(request: "XBTCAD", answers: ["XXBTZCAD", "XBTCAD"]),
    .aud: MarketPair(request: "XBTAUD", answers: ["XBTAUD"]),
    .chf: MarketPair(request: "XBTCHF", answers: ["XBTCHF"]),
  ]

  public static let bitstamp: [Currency: MarketPair] = [
    .usd: MarketPair(request: "btcusd", answers: []),
    .eur: MarketPair(request: "btceur", answers: []),
    .gbp: MarketPair(request: "btcgbp", answers: []),
  ]

  /// Every source's pairs by source id, in the default chain order.
  public static let bySource: [(sourceID: String, pairs: [Currency: MarketPair])] = [
    ("binance", binance),
    ("cryptocompare", cryptoCompare),
    ("coinbase", coinbase),
    ("kraken", kraken),
    ("bitstamp", bitstamp),
  ]

  /// The pair `sourceID` asks for in `currency`, or nil when it does not serve that currency (or
  /// is not a source this table knows).
  public static func pair(sourceID: String, currency: Currency) -> MarketPair? {
    bySource.first { $0.sourceID == sourceID }?.pairs[currency]
  }

  /// The ids of the sources that serve `currency`, in the default chain order.
  public static func sourceIDs(serving currency: Currency) -> [String] {
    bySource.filter { $0.pairs[currency] != nil }.map(\.sourceID)
  }

  /// The currencies `sourceID` serves, in ``Currency/supported`` order.
  public static func currencies(servedBy sourceID: String) -> [Currency] {
    guard let pairs = bySource.first(where: { $0.sourceID == sourceID })?.pairs else { return [] }
    return Currency.supported.filter { pairs[$0] != nil }
  }

  /// One line per currency, for `--help` and `--verbose`:
  /// `EUR  binance, cryptocompare, coinbase, kraken, bitstamp`.
  public static var servingSummary: [String] {
    Currency.supported.map { currency in
      "\(currency.code)  \(sourceIDs(serving: currency).joined(separator: ", "))"
    }
  }
}
