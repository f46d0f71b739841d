// fuzz-modules: BTCPriceRuntime BTCPriceCore BTCPriceSources
import BTCPriceCore
import BTCPriceSources

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Every source's REST answer, read as the chain reads it (`PriceSourceDefinition.map`), for
/// every currency the source serves. The input's first line names the source and currency
/// (`bitstamp EUR`); the rest is the body of a 200 answer.
///
/// Property: a price that comes out is the value of the number written in the field the source
/// documents for it, in an answer that names our pair, each of those fields present once
/// (docs/SOURCES.md, "What makes an answer a price").
let cases: [String: (definition: PriceSourceDefinition, currency: Currency)] = Dictionary(
  uniqueKeysWithValues: PriceSourceRegistry.all.flatMap { definition in
    definition.currencies.map { ("\(definition.source.id) \($0.code)", (definition, $0)) }
  })

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard let (name, body) = splitCase(bytes(data, size)), let (definition, currency) = cases[name]
  else { return 0 }
  guard
    let price = try? definition.map(
      BTCHTTPResponse(status: 200, body: Data(body)), in: currency)
  else { return 0 }
  say("\(definition.source.id) \(currency.code) price \(price)")
  guard let json = OracleJSON.read(body) else {
    violated("\(definition.source.id) \(currency.code): a price \(price) out of bytes not JSON")
  }
  let names = documentedNames(source: definition.source.id, currency: currency.code)
  let written = documentedPrice(source: definition.source.id, in: json, names: names)
  guard isTheValue(price, of: written) else {
    violated(
      "\(definition.source.id) \(currency.code): price \(price), but the answer's documented "
        + "field for our pair says \(written ?? "nothing")")
  }
  return 0
}

/// The names an answer of `source` gives BTC's pair in `currency`, from the exchanges' docs
/// (docs/SOURCES.md's pair table, docs/CURRENCIES.md), not from the product's market tables: a
/// wrong entry there is a wrong price too.
func documentedNames(source: String, currency: String) -> Set<String> {
  switch source {
  case "binance": return [currency == "USD" ? "BTCUSDT" : "BTC\(currency)"]
  case "kraken": return ["XXBTZ\(currency)", "XBT\(currency)"]
  case "bitstamp": return ["BTC/\(currency)"]
  case "okx": return [currency == "USD" ? "BTC-USDT" : "BTC-\(currency)"]
  default: return [currency]
  }
}

/// The text of the price an answer documents for the pair `names` names, read from the
/// exchanges' documented shapes (docs/SOURCES.md's pair table), or nil when the answer does not
/// name the pair or names a field on the way twice.
func documentedPrice(source: String, in json: OracleJSON, names: Set<String>) -> String? {
  switch source {
  case "binance":
    guard let symbol = json.member("symbol")?.string, names.contains(symbol) else {
      return nil
    }
    return json.member("price")?.string
  case "cryptocompare":
    guard let raw = json.member("RAW"), raw.member("FROMSYMBOL")?.string == "BTC",
      let to = raw.member("TOSYMBOL")?.string, names.contains(to)
    else { return nil }
    return raw.member("PRICE")?.number
  case "coinbase":
    guard let data = json.member("data"), data.member("base")?.string == "BTC",
      let currency = data.member("currency")?.string, names.contains(currency)
    else { return nil }
    return data.member("amount")?.string
  case "kraken":
    guard let result = json.member("result")?.members, result.count == 1,
      names.contains(result[0].name)
    else { return nil }
    return result[0].value.member("c")?.elements?.first?.string
  case "bitstamp":
    guard let named = json.member("pair")?.string, names.contains(named) else { return nil }
    if let members = json.members, members.contains(where: { $0.name == "market" }) {
      guard let market = json.member("market")?.string, names.contains(market) else {
        return nil
      }
    }
    return json.member("last")?.string
  case "okx":
    guard let first = json.member("data")?.elements?.first,
      let instrument = first.member("instId")?.string, names.contains(instrument)
    else { return nil }
    return first.member("last")?.string
  case "gemini":
    guard let volume = json.member("volume"), volume.member("BTC") != nil,
      names.contains(where: { volume.member($0) != nil })
    else { return nil }
    return json.member("last")?.string
  default:
    violated("no oracle for source \(source): add its documented shape here")
  }
}
