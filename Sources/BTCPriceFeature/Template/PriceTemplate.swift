import BTCPriceCore

/// `--format`: a line shaped by the user, parsed once here (so the settings can check it without
/// the terminal) and rendered every tick by the terminal (`PriceTemplate+Render.swift`).
///
/// ```
/// {arrow} {price} {change_pct}{stale}   →   ▲ €68,901.23 +0.02%
/// ```
///
/// | placeholder | fresh | stale (a value is known) | nothing known yet |
/// |---|---|---|---|
/// | `{price}` | `€68,901.23` | the last known price | `-` |
/// | `{price_int}` | `€68,901`, rounded half up to a whole unit | the last known price | `-` |
/// | `{price_short}` | `€68.9K`, `¥10.3M`: three significant digits | the last known price | `-` |
/// | `{sats}` | `1451`: satoshis one unit of the currency buys | of the last known price | empty |
/// | `{amount}` | `68901.23` (exact, as received) | the last known amount | `-` |
/// | `{currency}` | `EUR` | `EUR` | `EUR` |
/// | `{time}` | when it was received, `Nov 22, 14:03:05` | its own time | `-` |
/// | `{source}` | `Binance` | who delivered it | `-` |
/// | `{arrow}` | `▲`, `▼` or `•` since the last tick | `•` | `•` |
/// | `{change}` | `+€12.34`, `-€5.00`, `€0.00` since the last tick | `€0.00` | empty |
/// | `{change_pct}` | `+0.02%`, `-0.01%`, `0.00%` | `0.00%` | empty |
/// | `{change_24h}` | `+€1,140.00`, `-€123.45` against the price 24 hours before | the same, of the shown price | empty |
/// | `{change_24h_pct}` | `+1.68%`, `-0.18%` | the same, of the shown price | empty |
/// | `{change_1h}`, `{change_7d}`, `{change_30d}` | the same over an hour, a week, a month | the same, of the shown price | empty |
/// | `{change_1h_pct}`, `{change_7d_pct}`, `{change_30d_pct}` | their percent | the same | empty |
/// | `{stale}` | empty | `stale` | `stale` |
/// | `{alert}` | the alerts the tick fired (`above $100,000.00`), else empty | empty | empty |
/// | `{value}` | `--holdings` at the price: `€17,225.31` | at the last known price | `-` |
/// | `{value_change_24h}` | `+€285.00`: the value against 24 hours before | the same, of the shown price | empty |
/// | `{pnl}`, `{pnl_pct}` | `+€2,225.31`, `+14.84%`: the value against `--cost-basis` in the shown currency | the same, of the shown price | empty |
///
/// The change is empty until two ticks are known (the first tick of a run has nothing to compare
/// with); the 24-hour change is empty while the price history cannot say (never a zero). `{{`
/// and `}}` write a literal brace. With colours on, the three prices, `{arrow}`, `{change}` and
/// `{change_pct}` are green for a rise and red for a fall (a price is not coloured while stale,
/// as in the plain lines), and `{stale}` is highlighted like the failure banner.
public struct PriceTemplate: Equatable, Sendable {
  public enum Placeholder: String, CaseIterable, Sendable {
    case price, amount, currency, time, source, arrow, change
    case changePercent = "change_pct"
    case change24h = "change_24h"
    case change24hPercent = "change_24h_pct"
    case stale
    case alert
    case priceInt = "price_int"
    case priceShort = "price_short"
    case sats
    case change1h = "change_1h"
    case change1hPercent = "change_1h_pct"
    case change7d = "change_7d"
    case change7dPercent = "change_7d_pct"
    case change30d = "change_30d"
    case change30dPercent = "change_30d_pct"
    case value
    case valueChange24h = "value_change_24h"
    case pnl
    case pnlPercent = "pnl_pct"

    /// Whether it shows the holdings (`--holdings`), which a template may use only when they
    /// are set.
    public var showsHoldings: Bool {
      switch self {
      case .value, .valueChange24h, .pnl, .pnlPercent: true
      default: false
      }
    }

    /// The period whose change this placeholder shows, and whether it is the percent; nil for
    /// every other placeholder.
    public var change: (period: ChangePeriod, percent: Bool)? {
      switch self {
      case .change1h: (.hour, false)
      case .change1hPercent: (.hour, true)
      case .change24h: (.day, false)
      case .change24hPercent: (.day, true)
      case .change7d: (.week, false)
      case .change7dPercent: (.week, true)
      case .change30d: (.month, false)
      case .change30dPercent: (.month, true)
      default: nil
      }
    }
  }

  /// A piece of the template: text written as it is, or a placeholder filled in every tick.
  public enum Segment: Equatable, Sendable {
    case literal(String)
    case placeholder(Placeholder)
  }

  /// The template as the user wrote it.
  public let text: String
  /// The template, parsed: what a view renders in order.
  public let segments: [Segment]

  /// Whether the template shows the holdings (`{value}`, `{value_change_24h}`, `{pnl}`,
  /// `{pnl_pct}`).
  public var showsHoldings: Bool {
    segments.contains {
      if case .placeholder(let placeholder) = $0 { placeholder.showsHoldings } else { false }
    }
  }

  /// Whether `{change_24h}` or `{change_24h_pct}` is in the template.
  public var showsTheDaysChange: Bool { periodsShown.contains(.day) }

  /// The periods whose change the template shows: their ranges' candles are what a run asks
  /// for, and no others.
  public var periodsShown: Set<ChangePeriod> {
    Set(
      segments.compactMap {
        if case .placeholder(let placeholder) = $0 {
          // The value's change over 24 hours is measured on the day's history too.
          placeholder == .valueChange24h ? .day : placeholder.change?.period
        } else {
          nil
        }
      })
  }

  /// Parses `text` once; fails on an unknown placeholder or a brace without its pair.
  public init(_ text: String) throws(ParseError) {
    self.text = text
    var segments: [Segment] = []
    var literal = ""
    let characters = Array(text)
    var index = 0
    func flush() {
      if !literal.isEmpty { segments.append(.literal(literal)) }
      literal = ""
    }
    while index < characters.count {
      let character = characters[index]
      let next = index + 1 < characters.count ? characters[index + 1] : nil
      switch character {
      case "{" where next == "{":
        literal.append("{")
        index += 2
      case "}" where next == "}":
        literal.append("}")
        index += 2
      case "}":
        throw ParseError(kind: .unmatchedClosingBrace, column: index + 1)
      case "{":
        guard let close = characters[(index + 1)...].firstIndex(where: { $0 == "{" || $0 == "}" }),
          characters[close] == "}"
        else { throw ParseError(kind: .unmatchedOpeningBrace, column: index + 1) }
        let name = String(characters[(index + 1)..<close])
        guard let placeholder = Placeholder(rawValue: name) else {
          throw ParseError(kind: .unknownPlaceholder(name), column: index + 1)
        }
        flush()
        segments.append(.placeholder(placeholder))
        index = close + 1
      default:
        literal.append(character)
        index += 1
      }
    }
    flush()
    self.segments = segments
  }

  /// Why a template was refused. Its description lists the placeholders that exist.
  public struct ParseError: Error, Equatable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
      case unknownPlaceholder(String)
      case unmatchedOpeningBrace
      case unmatchedClosingBrace
    }

    public let kind: Kind
    /// Where the offending brace is, counting characters from 1.
    public let column: Int

    /// `{price}, {amount}, …, {alert}, {price_int}, {price_short}, {sats}, {change_1h}, …`
    public static let knownPlaceholders = Placeholder.allCases.map { "{\($0.rawValue)}" }
      .joined(separator: ", ")

    public var description: String {
      let problem: String
      switch kind {
      case .unknownPlaceholder(let name):
        let shown = name.count > 30 ? String(name.prefix(30)) + "…" : name
        problem = "unknown placeholder {\(shown)} at column \(column)"
      case .unmatchedOpeningBrace:
        problem = "\"{\" at column \(column) has no matching \"}\""
      case .unmatchedClosingBrace:
        problem = "\"}\" at column \(column) has no matching \"{\""
      }
      return "\(problem); known placeholders: \(Self.knownPlaceholders); "
        + "write {{ and }} for literal braces"
    }
  }
}
