// fuzz-modules: BTCPriceRuntime BTCPriceCore BTCPriceSources
import BTCPriceCore
import BTCPriceSources

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Every source's stream message, read as the stream runner reads a text frame
/// (`String(strictUTF8:)`, then `PriceStreamEndpoint.read`), for every currency the stream
/// serves. The input's first line names the source and currency (`okx USD`); the rest is the
/// frame's payload.
///
/// Property: a trade's price is the value of the number written in the field the source
/// documents for it, in a message of the documented kind that names our market (without regard
/// to case, as docs/SOURCES.md says), each of those fields present once.
let endpoints: [String: PriceStreamEndpoint] = Dictionary(
  uniqueKeysWithValues: PriceSourceRegistry.all.flatMap { definition in
    definition.currencies.compactMap { currency in
      (try? definition.streamEndpoint(for: currency)).map {
        ("\(definition.source.id) \(currency.code)", $0)
      }
    }
  })

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard let (name, payload) = splitCase(bytes(data, size)), let endpoint = endpoints[name],
    let text = String(strictUTF8: payload),
    case .trade(let price)? = try? endpoint.read(text)
  else { return 0 }
  say("\(name) trade \(price)")
  guard let json = OracleJSON.read(payload) else {
    violated("\(name): a trade at \(price) out of a message that is not JSON")
  }
  let market = documentedMarket(source: endpoint.source.id, currency: String(name.suffix(3)))
  let written = documentedTrade(source: endpoint.source.id, in: json, market: market)
  guard isTheValue(price, of: written) else {
    violated(
      "\(name): a trade at \(price), but the message's documented field for \(market) "
        + "says \(written ?? "nothing")")
  }
  return 0
}

/// How the source's stream names BTC's market in `currency`, from the exchanges' docs
/// (docs/SOURCES.md's pair table), not from the product's tables.
func documentedMarket(source: String, currency: String) -> String {
  switch source {
  case "binance": return currency == "USD" ? "BTCUSDT" : "BTC\(currency)"
  case "bitstamp": return "btc\(currency.lowercased())"
  case "coinbase": return "BTC-\(currency)"
  case "kraken": return "BTC/\(currency)"
  case "okx": return currency == "USD" ? "BTC-USDT" : "BTC-\(currency)"
  default: violated("no documented market for the \(source) stream")
  }
}

func names(_ value: OracleJSON?, _ market: String) -> Bool {
  value?.string?.lowercased() == market.lowercased()
}

/// The text of the trade price a message documents for `market`, from the exchanges' documented
/// stream messages, or nil when it is not a trade of that market or names a field twice.
func documentedTrade(source: String, in json: OracleJSON, market: String) -> String? {
  switch source {
  case "binance":
    guard let event = json.member("e")?.string, ["trade", "aggTrade"].contains(event),
      names(json.member("s"), market)
    else { return nil }
    return json.member("p")?.string
  case "bitstamp":
    guard json.member("event")?.string == "trade",
      names(json.member("channel"), "live_trades_" + market)
    else { return nil }
    return json.member("data")?.member("price_str")?.string
  case "coinbase":
    guard json.member("type")?.string == "ticker", names(json.member("product_id"), market) else {
      return nil
    }
    return json.member("price")?.string
  case "kraken":
    guard json.member("channel")?.string == "ticker",
      let last = json.member("data")?.elements?.last, names(last.member("symbol"), market)
    else { return nil }
    return last.member("last")?.number
  case "okx":
    guard let members = json.members, !members.contains(where: { $0.name == "event" }),
      let argument = json.member("arg"), argument.member("channel")?.string == "tickers",
      names(argument.member("instId"), market),
      let tickers = json.member("data")?.elements, let last = tickers.last,
      tickers.allSatisfy({ names($0.member("instId"), market) })
    else { return nil }
    return last.member("last")?.string
  default:
    violated("no oracle for the \(source) stream: add its documented messages here")
  }
}
