import BTCPriceCore
import BTCPriceSources
import BTCPriceTerminal

/// What `--verbose` says as a run starts, before its first tick: the chain (and the sources the
/// currency left out), the way each source goes, which streams the ticks read first and the way
/// each of them goes.
enum StartReport {
  /// Before the pipeline is built: the chain, and the way each source goes.
  static func chainLines(_ options: ResolvedOptions) -> [String] {
    let configuration = options.configuration
    var lines = [
      SourceReport.chainLine(
        currency: configuration.currency, sourceIDs: configuration.sources.map(\.source.id),
        leftOutIDs: options.leftOut.map(\.source.id))
    ]
    for definition in configuration.sources {
      let url = configuration.urls[definition.source.id] ?? definition.defaultURL
      lines.append("\(definition.source.id) goes \(options.proxies.explain(for: url))")
    }
    return lines
  }

  /// For the terminal's run with holdings: why no gain is shown when the cost basis is in
  /// another currency than the price (no rate between them is asked for); nil otherwise. Never
  /// the amounts.
  static func holdingsLine(_ options: ResolvedOptions) -> String? {
    let shown = options.configuration.currency
    guard let basis = options.holdings?.costBasis, basis.currency != shown else { return nil }
    return "no gain shown: the cost basis is in \(basis.currency.code), the price in "
      + "\(shown.code), and btc-price converts no currency"
  }

  /// Once the pipeline is built, for a run that asked for streams: which ones the ticks read
  /// first (`streams` is nil when no source of the chain has one in the currency), and the way
  /// each goes.
  static func streamLines(_ options: ResolvedOptions, streams: PriceStreamSet?) -> [String] {
    let runners = streams?.runners ?? []
    var lines: [String] = []
    if runners.isEmpty {
      lines.append(
        "streams: no source in the chain has one in \(options.configuration.currency.code); "
          + "every tick asks REST")
    } else {
      let standby = streams?.standby.map { " (\($0.source.id) stands in while one rests)" } ?? ""
      lines.append(
        "streams first: \(runners.map(\.source.id).joined(separator: ", "))\(standby); REST when "
          + "none is alive")
    }
    for runner in runners + [streams?.standby].compactMap({ $0 }) {
      lines.append("\(runner.source.id) stream goes \(options.proxies.explain(for: runner.url))")
    }
    return lines
  }
}
