import BTCPriceCore
import BTCPriceFeature
import BTCPriceTerminal

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `GET /`: the page, with the current state already in the HTML, so a price shows before any
/// script runs (and without scripts at all). `/app.js` then keeps it live from the stream.
///
/// Times are written in UTC here, marked as such; the script rewrites them in the viewer's own
/// time zone. Every text that comes from outside (sources, errors) is HTML-escaped.
public enum PricePage {
  /// Fresh values the sparkline shows at most.
  public static let sparklinePoints = 60

  public static func render(
    latest: PriceEvent, recent: [PriceEvent], sources: [PriceSource], alertRules: String? = nil
  ) -> String {
    let state = latest.state
    let quote = state.quote
    let pageState = quote == nil ? "empty" : state.isStale ? "stale" : "fresh"
    let change = Self.change(recent, in: Currency.named(latest.state.record.currency) ?? .usd)
    let iso = state.record.timestamp
    let time =
      quote.map { timeElement($0.timestamp, iso: iso, id: "time") }
      ?? "<time id=\"time\">-</time>"
    let bannerTime =
      quote.map { timeElement($0.timestamp, iso: iso, id: "banner-time") }
      ?? "<time id=\"banner-time\">-</time>"
    let sourceNames = sources.map { "\(HTML.escape($0.id))=\(HTML.escape($0.displayName))" }
      .joined(separator: ";")
    let values = recent.compactMap { event -> Decimal? in
      event.state.isStale ? nil : event.state.quote?.value
    }.suffix(sparklinePoints)
    let currency = Currency.named(state.record.currency) ?? .usd
    let title = quote == nil ? state.pairText : "\(state.priceText) · \(state.pairText)"

    return """
      <!doctype html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
      <meta name="color-scheme" content="light dark">
      <meta name="theme-color" content="#f7931a">
      <meta name="description" content="The Bitcoin price, live.">
      <title>\(HTML.escape(title))</title>
      <link rel="manifest" href="/manifest.webmanifest">
      <link rel="icon" href="/icon.svg" type="image/svg+xml">
      <link rel="stylesheet" href="/app.css">
      <script src="/app.js" defer></script>
      </head>
      <body>
      <main id="panel" data-state="\(pageState)" data-direction="\(change?.direction ?? "none")" \
      data-event-id="\(latest.id)" data-json="\(HTML.escape(latest.json))" data-sources="\(sourceNames)" \
      data-sparkline="\(values.map { "\($0)" }.joined(separator: " "))" \
      data-pair="\(HTML.escape(state.pairText))" data-symbol="\(HTML.escape(currency.symbol))" \
      data-minor-units="\(currency.minorUnits)">
      <p class="pair">\(HTML.escape(state.pairText))</p>
      <p id="price" class="price">\(HTML.escape(state.priceText))</p>
      <p id="change" class="change">\(HTML.escape(change?.text ?? ""))</p>
      <p id="updated" class="updated">Last updated \(time)\
      <span id="from"\(quote == nil ? " hidden" : "")> from <span id="source">\
      \(HTML.escape(state.sourceName ?? ""))</span></span></p>
      <p id="banner" class="banner"\(state.isStale ? "" : " hidden")>\
      \(HTML.escape(PricePresenter.bannerPrefix)) \(bannerTime)</p>
      \(Sparkline.svg(Array(values)))
      \(alertRulesLine(alertRules))
      <p id="connection" class="connection" hidden>Reconnecting…</p>
      <p id="announcer" class="visually-hidden" aria-live="polite" aria-atomic="true"></p>
      </main>
      <noscript><p class="noscript">Reload the page for a newer price.</p></noscript>
      </body>
      </html>

      """
  }

  /// The armed alert rules (serve's `--alert`), in the presenter's words; nothing without rules.
  public static func alertRulesLine(_ text: String?) -> String {
    guard let text else { return "" }
    return "<p id=\"alerts\" class=\"alerts\">\(HTML.escape(text))</p>"
  }

  /// `<time datetime="2026-11-22T14:03:05Z">Nov 22, 14:03:05 UTC</time>`: the machine time is
  /// the presenter's (the `--json` timestamp).
  static func timeElement(_ date: Date, iso: String?, id: String) -> String {
    "<time id=\"\(id)\" datetime=\"\(HTML.escape(iso ?? ""))\">"
      + HTML.escape(utcTimestamps.format(date) + " UTC") + "</time>"
  }

  private static let utcTimestamps = TimestampFormatter.utc(precision: .seconds)

  /// The change between the last two ticks that showed a value, in the page's short form
  /// (`▲ +€12.34`: the arrow and amount the presenter words).
  private static func change(_ recent: [PriceEvent], in currency: Currency)
    -> (direction: String, text: String)?
  {
    let values = recent.suffix(2).compactMap { $0.state.quote?.value }
    guard values.count == 2 else { return nil }
    let presenter = PricePresenter(
      timestamps: TimestampFormatter(precision: .seconds), currency: currency)
    let change = presenter.presentChange(PriceChange(from: values[0], to: values[1]))
    switch change.direction {
    case .up: return ("up", "\(change.arrow) \(change.amountText)")
    case .down: return ("down", "\(change.arrow) \(change.amountText)")
    case .unchanged: return ("unchanged", change.text)
    }
  }
}

/// Escaping for text and attribute values.
public enum HTML {
  public static func escape(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      default: result.append(character)
      }
    }
    return result
  }
}

extension Sparkline {
  /// The page's sparkline: an inline SVG polyline (inline SVG needs no `img-src`), scaled between
  /// the values' low and high; a flat series is drawn at mid height.
  static func svg(_ values: [Decimal]) -> String {
    // Coordinates for drawing, not money: a Double is exact enough.
    let points = polyline(values.map { Double($0.plainText) ?? 0 })
    return """
      <svg id="sparkline" class="sparkline" viewBox="0 0 600 100" preserveAspectRatio="none" \
      role="img" aria-label="Price over the last \(values.count) ticks">\
      <polyline id="sparkline-line" fill="none" stroke="currentColor" stroke-width="3" \
      vector-effect="non-scaling-stroke" stroke-linejoin="round" points="\(points)"/></svg>
      """
  }

  /// Coordinates in a 600 × 100 box, x left to right, high values at the top. The values are only
  /// drawn, never shown, so `Double` is fine here.
  static func polyline(_ values: [Double]) -> String {
    guard let low = values.min(), let high = values.max() else { return "" }
    let span = high - low
    let step = values.count > 1 ? 600 / Double(values.count - 1) : 0
    return values.enumerated().map { index, value in
      let y = span > 0 ? 95 - (value - low) / span * 90 : 50
      return oneDecimal(Double(index) * step) + "," + oneDecimal(y)
    }.joined(separator: " ")
  }

  /// `12.3`: a coordinate rounded to tenths (the box is 600 × 100; tenths are finer than pixels).
  private static func oneDecimal(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    let sign = tenths < 0 ? "-" : ""
    return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)"
  }
}
