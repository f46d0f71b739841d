import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `--json`: one JSON object per tick, keys always in this order:
///
/// `{"timestamp":"2026-11-22T14:03:05Z","price":"68901.23","currency":"USD","source":"binance","stale":false}`
///
/// A stale line carries the last known value with its own timestamp and source (`null` when
/// nothing is known) and an `error` with the reason. Once no source has given a price for a few
/// ticks (``OutageNotice``), a stale line also carries `reason`: what the failures have in common.
/// While the price history knows the price 24 hours before the shown one, a line carries
/// `change24h`, in exact decimals as the price is (the percent rounded half up to two decimals)
/// and from when: `"change24h":{"absolute":"-123.45","percent":"-0.18",
/// "since":"2026-11-21T14:03:05Z"}`; without such a history the key is left out, never zero.
/// Where the history can say, `changes` carries the same for each period, keyed `1h`, `24h`,
/// `7d` and `30d` in that order, a period it cannot say left out (`change24h` stays as it is).
/// With a price known, a line carries `satsPerUnit`: how many satoshis one unit of the
/// currency buys at that price, a whole number as a string (`"satsPerUnit":"1451"`).
/// With `--holdings` (the terminal's `--json` only) and a price known, a line carries
/// `holdings` (``HoldingsRecord``): `"holdings":{"amount":"0.25","value":"17225.31",
/// "change24h":"285.00","pnl":{"absolute":"2225.31","percent":"14.84"}}`.
/// A tick on which two streams disagreed carries `crossCheck`: the price kept off the screen
/// and the source whose price settled it,
/// `"crossCheck":{"rejected":{"source":"binance","price":"6890.12"},"referee":"kraken"}`, or, on
/// the failed tick of a disagreement nothing settled,
/// `"crossCheck":{"unsettled":[{"source":"binance","price":"6890.12"},{"source":"coinbase","price":"68901.23"}]}`.
/// A tick that fired alerts ends with
/// `"alerts":[{"rule":"above:100000","direction":"up","text":"above $100,000.00",
/// "title":"BTC above $100,000.00","body":"$100,012.00 at Nov 22, 14:03:05 from Binance"}]`.
public enum JSONLineRenderer {
  public static func render(_ state: PriceViewState, reason: String? = nil) -> String {
    let record = state.record
    var fields = [
      ("timestamp", record.timestamp.map(string) ?? "null"),
      ("price", record.price.map(string) ?? "null"),
      ("currency", string(record.currency)),
      ("source", record.source.map(string) ?? "null"),
      ("stale", record.stale ? "true" : "false"),
    ]
    if let error = record.error {
      fields.append(("error", string(error)))
    }
    if record.stale, let reason {
      fields.append(("reason", string(reason)))
    }
    if let change = record.change24h {
      fields.append(("change24h", object(change)))
    }
    if !record.changes.isEmpty {
      let members = ChangePeriod.allCases.compactMap { period in
        record.changes[period].map { "\"\(period.rawValue)\":" + object($0) }
      }
      fields.append(("changes", "{" + members.joined(separator: ",") + "}"))
    }
    if let sats = record.satsPerUnit {
      fields.append(("satsPerUnit", string(sats)))
    }
    if let holdings = state.holdings?.record {
      fields.append(("holdings", object(holdings)))
    }
    if let crossCheck = record.crossCheck {
      fields.append(("crossCheck", object(crossCheck)))
    }
    if let alert = state.alert {
      let items = alert.items.map { item in
        "{\"rule\":\(string(item.rule)),\"direction\":\(string(item.direction)),"
          + "\"text\":\(string(item.text)),\"title\":\(string(item.title)),"
          + "\"body\":\(string(item.body))}"
      }
      fields.append(("alerts", "[" + items.joined(separator: ",") + "]"))
    }
    return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
  }

  private static func object(_ change: ChangeRecord) -> String {
    "{\"absolute\":\(string(change.absolute)),\"percent\":\(string(change.percent)),"
      + "\"since\":\(string(change.since))}"
  }

  private static func object(_ holdings: HoldingsRecord) -> String {
    var members = ["\"amount\":\(string(holdings.amount))", "\"value\":\(string(holdings.value))"]
    if let change = holdings.change24h { members.append("\"change24h\":\(string(change))") }
    if let pnl = holdings.pnl {
      members.append(
        "\"pnl\":{\"absolute\":\(string(pnl.absolute)),\"percent\":\(string(pnl.percent))}")
    }
    return "{" + members.joined(separator: ",") + "}"
  }

  private static func object(_ crossCheck: CrossCheckRecord) -> String {
    func price(_ price: CrossCheckRecord.Price) -> String {
      "{\"source\":\(string(price.source)),\"price\":\(string(price.price))}"
    }
    switch crossCheck {
    case .rejected(let rejected, let referee):
      return "{\"rejected\":\(price(rejected)),\"referee\":\(string(referee))}"
    case .unsettled(let a, let b):
      return "{\"unsettled\":[\(price(a)),\(price(b))]}"
    }
  }

  /// `text` as a JSON string literal; control characters are escaped so a line is always one
  /// line.
  public static func string(_ text: String) -> String {
    text.jsonLiteral
  }
}
