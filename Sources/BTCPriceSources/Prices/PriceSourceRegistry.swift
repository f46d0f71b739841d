import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The one list of the sources this build can ask. Adding a source means writing its
/// ``PriceSourceDefinition`` (endpoint, mapper, advice) and adding it here; docs/ARCHITECTURE.md
/// walks through it.
public enum PriceSourceRegistry {
  /// The default chain, in order: the specified primary and fallback first, then the keyless
  /// sources that keep the price flowing when those two refuse us (each definition says why it
  /// stands where it does).
  public static let all: [PriceSourceDefinition] = [
    .binance, .cryptoCompare, .coinbase, .kraken, .bitstamp, .okx, .gemini,
  ]

  /// The source with this id (case-insensitive), if this build knows it.
  public static func definition(id: String) -> PriceSourceDefinition? {
    let id = id.lowercased()
    return all.first { $0.source.id == id }
  }

  /// The known sources, for naming a cached quote's source.
  public static var sources: [PriceSource] { all.map(\.source) }

  /// The sources that serve `currency`, in the default chain order.
  public static func serving(_ currency: Currency) -> [PriceSourceDefinition] {
    all.filter { $0.markets[currency] != nil }
  }

  /// One line per currency, for `--help` and `--verbose`:
  /// `EUR  binance, cryptocompare, coinbase, kraken, bitstamp`.
  public static var servingSummary: [String] {
    Currency.supported.map { currency in
      "\(currency.code)  \(serving(currency).map(\.source.id).joined(separator: ", "))"
    }
  }
}

extension PriceSourceRegistry {
  /// A source list that names a source this build does not know, or one twice.
  public struct InvalidList: Error, Equatable, CustomStringConvertible {
    public let description: String

    public init(description: String) {
      self.description = description
    }
  }

  /// The chain a comma-separated list of ids names, in its order; every known source in the
  /// default order when `list` is nil.
  public static func chain(named list: String?) throws(InvalidList) -> [PriceSourceDefinition] {
    guard let list else { return all }
    var chain: [PriceSourceDefinition] = []
    for name in list.split(separator: ",", omittingEmptySubsequences: false) {
      let id = String(name).trimmingWhitespace
      guard let definition = definition(id: id) else {
        let known = all.map(\.source.id).joined(separator: ", ")
        throw InvalidList(
          description: "unknown source \"\(id.prefix(40))\"; known sources: \(known).")
      }
      guard !chain.contains(where: { $0.source == definition.source }) else {
        throw InvalidList(description: "\(definition.source.id) is listed twice.")
      }
      chain.append(definition)
    }
    return chain
  }
}

extension PriceSourceRegistry {
  /// A source list that names a source without a market in the run's currency.
  public struct NotServed: Error, Equatable, CustomStringConvertible {
    public let description: String

    public init(description: String) {
      self.description = description
    }
  }

  /// The chain for `currency`, and the sources left out of it: by default every source that
  /// serves the currency (the others are left out); a list someone gave must name only such
  /// sources, since asking one that does not would fail on every tick.
  public static func chain(ids: [String]?, for currency: Currency) throws(NotServed)
    -> (chain: [PriceSourceDefinition], leftOut: [PriceSourceDefinition])
  {
    let serving = serving(currency)
    guard let ids else { return (serving, all.filter { $0.markets[currency] == nil }) }
    let chain = ids.compactMap(definition(id:))
    if let lacking = chain.first(where: { $0.markets[currency] == nil }) {
      throw NotServed(
        description: "\(lacking.source.id) has no BTC/\(currency.code) market; sources for "
          + "\(currency.code): \(serving.map(\.source.id).joined(separator: ", ")).")
    }
    return (chain, [])
  }
}
