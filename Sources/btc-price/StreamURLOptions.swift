import ArgumentParser
import BTCPriceNetworking

/// `--<source>-stream-url` for every source with a stream (``PriceSourceDefinition/stream``): where to
/// open its stream instead of its real endpoint. ArgumentParser needs one property per option, so
/// this names the streams again; `SourceRegistryAgreementTests` checks it against the registry.
struct StreamURLOptions: ParsableArguments {
  @Option(
    name: .customLong(PriceSourceDefinition.binance.streamURLOptionName), help: .url(.binance))
  var binance: String?

  @Option(
    name: .customLong(PriceSourceDefinition.coinbase.streamURLOptionName), help: .url(.coinbase))
  var coinbase: String?

  @Option(name: .customLong(PriceSourceDefinition.kraken.streamURLOptionName), help: .url(.kraken))
  var kraken: String?

  @Option(
    name: .customLong(PriceSourceDefinition.bitstamp.streamURLOptionName), help: .url(.bitstamp))
  var bitstamp: String?

  /// The stream URL given on the command line for each source, by source id.
  var given: [String: String] {
    let values: [(PriceSourceDefinition, String?)] = [
      (.binance, binance), (.coinbase, coinbase), (.kraken, kraken), (.bitstamp, bitstamp),
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
      "\(definition.source.displayName) stream URL, ws:// or wss:// (env "
        + "\(definition.streamURLEnvironmentVariable)).",
      valueName: "url")
  }
}
