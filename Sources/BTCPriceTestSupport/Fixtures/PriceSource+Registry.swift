import BTCPriceCore
import BTCPriceSources

/// The registry's sources by name, for tests.
extension PriceSource {
  public static var binance: PriceSource { PriceSourceDefinition.binance.source }
  public static var cryptoCompare: PriceSource { PriceSourceDefinition.cryptoCompare.source }
  public static var coinbase: PriceSource { PriceSourceDefinition.coinbase.source }
  public static var kraken: PriceSource { PriceSourceDefinition.kraken.source }
  public static var bitstamp: PriceSource { PriceSourceDefinition.bitstamp.source }
}
