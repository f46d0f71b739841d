import BTCPriceCore

extension CurrencyMarkets {
  /// The mapper of `sourceID`, checking answers against its pair for `currency`; nil when the
  /// source does not serve that currency.
  public static func mapper(sourceID: String, currency: Currency) -> PriceSourceDefinition.Mapper? {
    guard let pair = pair(sourceID: sourceID, currency: currency) else { return nil }
    switch sourceID {
    case "binance":
      return { response throws(PriceSourceError) in
        try BinanceMapper.map(response, pair: pair)
      }
    case "cryptocompare":
      return { response throws(PriceSourceError) in
        try CryptoCompareMapper.map(response, pair: pair)
      }
    case "coinbase":
      return { response throws(PriceSourceError) in
        try CoinbaseMapper.map(response, pair: pair)
      }
    case "kraken":
      return { response throws(PriceSourceError) in
        try KrakenMapper.map(response, pair: pair)
      }
    case "bitstamp":
      return { response throws(PriceSourceError) in
        try BitstampMapper.map(response, pair: pair)
      }
    default: return nil
    }
  }
}
