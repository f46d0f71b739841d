import ArgumentParser
import BTCPriceNetworking

/// `--<source>-url` for every source in ``PriceSourceRegistry``: where to ask it instead of its
/// real endpoint. ArgumentParser needs one property per option, so this is the one place that
/// names the sources again; `SourceRegistryAgreementTests` checks it against the registry.
struct SourceURLOptions: ParsableArguments {
  @Option(name: .customLong(PriceSourceDefinition.binance.urlOptionName), help: .url(.binance))
  var binance: String?

  @Option(
    name: .customLong(PriceSourceDefinition.cryptoCompare.urlOptionName),
    help: .url(.cryptoCompare))
  var cryptoCompare: String?

  @Option(name: .customLong(PriceSourceDefinition.coinbase.urlOptionName), help: .url(.coinbase))
  var coinbase: String?

  @Option(name: .customLong(PriceSourceDefinition.kraken.urlOptionName), help: .url(.kraken))
  var kraken: String?

  @Option(name: .customLong(PriceSourceDefinition.bitstamp.urlOptionName), help: .url(.bitstamp))
  var bitstamp: String?

  @Option(name: .customLong(PriceSourceDefinition.gemini.urlOptionName), help: .url(.gemini))
  var gemini: String?

  /// The URL given on the command line for each source, by source id.
  var given: [String: String] {
    let values: [(PriceSourceDefinition, String?)] = [
      (.binance, binance), (.cryptoCompare, cryptoCompare), (.coinbase, coinbase),
      (.kraken, kraken), (.bitstamp, bitstamp), (.gemini, gemini),
    ]
    return Dictionary(
      uniqueKeysWithValues: values.compactMap { definition, value in
        value.map { (definition.source.id, $0) }
      })
  }
}

extension ArgumentHelp {
  fileprivate static func url(_ definition: PriceSourceDefinition) -> ArgumentHelp {
    ArgumentHelp(
      "\(definition.source.displayName) endpoint URL (env \(definition.urlEnvironmentVariable)).",
      valueName: "url")
  }
}
