// fuzz-modules: BTCPriceCore BTCPriceNetworking
import BTCPriceCore
import BTCPriceNetworking

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
  guard let pair = definition.markets[currency],
    let price = try? definition.map(
      BTCHTTPResponse(status: 200, body: Data(body)), in: currency)
  else { return 0 }
  say("\(definition.source.id) \(currency.code) price \(price)")
  guard let json = OracleJSON.read(body) else {
    violated("\(definition.source.id) \(currency.code): a price \(price) out of bytes not JSON")
  }
  let written = documentedPrice(source: definition.source.id, in: json, pair: pair)
  guard isTheValue(price, of: written) else {
    violated(
      "\(definition.source.id) \(currency.code): price \(price), but the answer's documented "
        + "field for our pair says \(written ?? "nothing")")
  }
  return 0
}

/// The text of the price an answer documents for `pair`, read from the exchanges' documented
/// shapes (docs/SOURCES.md's pair table), or nil when the answer does not name the pair or
/// names a field on the way twice.
func documentedPrice(source: String, in json: OracleJSON, pair: MarketPair) -> String? {
  switch source {
  case "binance":
    guard let symbol = json.member("symbol")?.string, pair.answers.contains(symbol) else {
      return nil
    }
    return json.member("price")?.string
  case "cryptocompare":
    guard let raw = json.member("RAW"), raw.member("FROMSYMBOL")?.string == "BTC",
      let to = raw.member("TOSYMBOL")?.string, pair.answers.contains(to)
    else { return nil }
    return raw.member("PRICE")?.number
  case "coinbase":
    guard let data = json.member("data"), data.member("base")?.string == "BTC",
      let currency = data.member("currency")?.string, pair.answers.contains(currency)
    else { return nil }
    return data.member("amount")?.string
  case "kraken":
    guard let result = json.member("result")?.members, result.count == 1,
      pair.answers.contains(result[0].name)
    else { return nil }
    return result[0].value.member("c")?.elements?.first?.string
  case "bitstamp":
    guard let named = json.member("pair")?.string, pair.answers.contains(named) else { return nil }
    if let members = json.members, members.contains(where: { $0.name == "market" }) {
      guard let market = json.member("market")?.string, pair.answers.contains(market) else {
        return nil
      }
    }
    return json.member("last")?.string
  case "okx":
    guard let first = json.member("data")?.elements?.first,
      let instrument = first.member("instId")?.string, pair.answers.contains(instrument)
    else { return nil }
    return first.member("last")?.string
  case "gemini":
    guard let volume = json.member("volume"), volume.member("BTC") != nil,
      pair.answers.contains(where: { volume.member($0) != nil })
    else { return nil }
    return json.member("last")?.string
  default:
    violated("no oracle for source \(source): add its documented shape here")
  }
}
