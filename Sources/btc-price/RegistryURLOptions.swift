import ArgumentParser
import BTCPriceSources

/// `--<source>-url` for every source in ``PriceSourceRegistry``: where to ask it instead of its
/// real endpoint.
typealias SourceURLOptions = RegistryURLOptions<RESTURLs>

/// `--<source>-stream-url` for every source with a stream: where to open it instead of its real
/// endpoint.
typealias StreamURLOptions = RegistryURLOptions<StreamURLs>

/// `--<source>-candles-url` for every source with candles: where to ask for its price history
/// instead of its real endpoint.
typealias CandlesURLOptions = RegistryURLOptions<CandlesURLs>

/// One option per source of the registry, read from the registry itself: a new source gets its
/// option, its place in `--help` and its error messages with nothing written here.
///
/// ArgumentParser learns a command's options from what a `Mirror` of it shows, and reads their
/// values back through `Decodable`. Declared properties are what a mirror usually shows; this
/// type shows one `Option` per source instead (`customMirror`) and reads each back by the same
/// key (`init(from:)`), so the options are ArgumentParser's own: the same `--help` lines, the
/// same `--binance-url=…` and `--binance-url …` spellings, the same errors for a missing value.
/// `SourceRegistryAgreementTests` fails if a source's option stops reaching it.
struct RegistryURLOptions<Kind: RegistryURLKind>: ParsableArguments, CustomReflectable {
  /// The URL given on the command line for each source, by source id.
  private(set) var given: [String: String] = [:]

  init() {}

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: OptionKey.self)
    for option in Kind.options {
      let parsed = try container.decode(Option<String?>.self, forKey: OptionKey(option.name))
      if let value = parsed.wrappedValue { given[option.sourceID] = value }
    }
  }

  var customMirror: Mirror {
    Mirror(
      self,
      children: Kind.options.map { option in
        (
          label: option.name,
          value: Option<String?>(name: .customLong(option.name), help: option.help) as Any
        )
      })
  }

  /// An option's key: its long name, which is unique on the command line.
  private struct OptionKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}

/// Which URL of its sources a ``RegistryURLOptions`` sets.
protocol RegistryURLKind {
  /// One option per source that has such a URL, in the registry's order.
  static var options: [RegistryURLOption] { get }
}

struct RegistryURLOption {
  let sourceID: String
  /// The long name, without its dashes: `binance-url`.
  let name: String
  let help: ArgumentHelp
}

/// `--<source>-url`, for every source.
enum RESTURLs: RegistryURLKind {
  static var options: [RegistryURLOption] {
    PriceSourceRegistry.all.map { definition in
      RegistryURLOption(
        sourceID: definition.source.id, name: definition.urlOptionName,
        help: ArgumentHelp(
          "\(definition.source.displayName) endpoint URL (env "
            + "\(definition.urlEnvironmentVariable)).",
          valueName: "url"))
    }
  }
}

/// `--<source>-stream-url`, for every source with a stream.
enum StreamURLs: RegistryURLKind {
  static var options: [RegistryURLOption] {
    PriceSourceRegistry.all.filter { $0.stream != nil }.map { definition in
      RegistryURLOption(
        sourceID: definition.source.id, name: definition.streamURLOptionName,
        help: ArgumentHelp(
          "\(definition.source.displayName) stream URL, ws:// or wss:// (env "
            + "\(definition.streamURLEnvironmentVariable)).",
          valueName: "url"))
    }
  }
}

/// `--<source>-candles-url`, for every source with candles.
enum CandlesURLs: RegistryURLKind {
  static var options: [RegistryURLOption] {
    PriceSourceRegistry.all.filter { $0.candles != nil }.map { definition in
      RegistryURLOption(
        sourceID: definition.source.id, name: definition.candlesURLOptionName,
        help: ArgumentHelp(
          "\(definition.source.displayName) price history (candles) URL (env "
            + "\(definition.candlesURLEnvironmentVariable)).",
          valueName: "url"))
    }
  }
}
