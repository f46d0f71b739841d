import ArgumentParser
import BTCPriceNetworking

/// `--<source>-stream-url` for every source with a stream (``PriceStreamDefinition``): where to
/// open its stream instead of its real endpoint. ArgumentParser needs one property per option, so
/// this names the streams again; `SourceRegistryAgreementTests` checks it against the registry.
struct StreamURLOptions: ParsableArguments {
  @Option(name: .customLong(PriceStreamDefinition.binance.urlOptionName), help: .url(.binance))
  var binance: String?

  @Option(name: .customLong(PriceStreamDefinition.coinbase.urlOptionName), help: .url(.coinbase))
  var coinbase: String?

  @Option(name: .customLong(PriceStreamDefinition.kraken.urlOptionName), help: .url(.kraken))
  var kraken: String?

  @Option(name: .customLong(PriceStreamDefinition.bitstamp.urlOptionName), help: .url(.bitstamp))
  var bitstamp: String?

  /// The stream URL given on the command line for each source, by source id.
  var given: [String: String] {
    let values: [(PriceStreamDefinition, String?)] = [
      (.binance, binance), (.coinbase, coinbase), (.kraken, kraken), (.bitstamp, bitstamp),
    ]
    return Dictionary(
      uniqueKeysWithValues: values.compactMap { definition, value in
        value.map { (definition.source.id, $0) }
      })
  }
}

extension ArgumentHelp {
  fileprivate static func url(_ definition: PriceStreamDefinition) -> ArgumentHelp {
    ArgumentHelp(
      "\(definition.source.displayName) stream URL, ws:// or wss:// (env "
        + "\(definition.urlEnvironmentVariable)).",
      valueName: "url")
  }
}
