import BTCPriceCore
import BTCPriceFeature

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `GET /`: the page, with the current state already in the HTML, so a price shows before any
/// script runs (and without scripts at all). `/app.js` then keeps it live from the stream.
///
/// A view only: every text is the presenter's (``PricePageViewState``), and the script places
/// the stream's texts the same way. Times are written in UTC here, marked as such; the script
/// rewrites them in the viewer's own time zone. Every text is HTML-escaped.
public enum PricePage {
  public static func render(latest: PriceEvent, alertRules: String? = nil) -> String {
    let view = latest.page
    let time = timeElement(view, id: "time")
    let bannerTime = timeElement(view, id: "banner-time")
    return """
      <!doctype html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
      <meta name="color-scheme" content="light dark">
      <meta name="theme-color" content="#f7931a">
      <meta name="description" content="The Bitcoin price, live.">
      <title>\(HTML.escape(view.titleText))</title>
      <link rel="manifest" href="/manifest.webmanifest">
      <link rel="icon" href="/icon.svg" type="image/svg+xml">
      <link rel="stylesheet" href="/app.css">
      <script src="/app.js" defer></script>
      </head>
      <body>
      <main id="panel" data-state="\(view.phase)" data-direction="\(view.direction)" \
      data-event-id="\(latest.id)" data-json="\(HTML.escape(latest.data))">
      <p id="pair" class="pair">\(HTML.escape(view.pairText))</p>
      <p id="price" class="price">\(HTML.escape(view.priceText))</p>
      <p id="change" class="change">\(HTML.escape(view.changeText))</p>
      <p id="updated" class="updated"><span id="updated-text">\(HTML.escape(view.updatedText))\
      </span> \(time)<span id="from"\(view.sourceText == nil ? " hidden" : "")> \
      <span id="source">\(HTML.escape(view.sourceText ?? ""))</span></span></p>
      <p id="banner" class="banner"\(view.bannerText == nil ? " hidden" : "")>\
      <span id="banner-text">\(HTML.escape(view.bannerText ?? ""))</span> \(bannerTime)</p>
      <p id="change24h" class="change24h" data-direction="\(view.change24hDirection)"\
      \(view.change24hText.isEmpty ? " hidden" : "")>\(HTML.escape(view.change24hText))</p>
      <p id="sats" class="sats"\(view.satsText.isEmpty ? " hidden" : "")>\
      \(HTML.escape(view.satsText))</p>
      \(chartFigure(view.chart))
      <svg id="sparkline" class="sparkline" viewBox="0 0 600 100" preserveAspectRatio="none" \
      role="img" aria-label="\(HTML.escape(view.sparklineLabel))"\(view.chart == nil ? "" : " hidden")>\
      <polyline id="sparkline-line" fill="none" stroke="currentColor" stroke-width="3" \
      vector-effect="non-scaling-stroke" stroke-linejoin="round" \
      points="\(HTML.escape(view.sparklinePoints))"/></svg>
      <p id="connection" class="connection" hidden>\
      \(HTML.escape(PricePageViewState.reconnectingText))</p>
      \(alertRulesLine(alertRules))
      <p id="announcer" class="visually-hidden" aria-live="polite" aria-atomic="true"></p>
      </main>
      <noscript><p class="noscript">\(HTML.escape(PricePageViewState.noScriptText))</p></noscript>
      </body>
      </html>

      """
  }

  /// The day's chart: its title and age, the line and the area under it in a 600 × 200 box
  /// stretched to the page's width, the high and the low beside it, the time axis's marks
  /// placed by the stylesheet's `at-<percent>` classes (no inline style: the page's
  /// Content-Security-Policy allows none), each with its instant (`data-time`), which the script
  /// writes in the viewer's zone. Hidden without a chart; the script fills it then.
  public static func chartFigure(_ chart: PageChartViewState?) -> String {
    let times = (chart?.times ?? []).map {
      "<span class=\"at-\($0.position)\" data-time=\"\(HTML.escape($0.time))\">"
        + "\(HTML.escape($0.text))</span>"
    }.joined()
    let box = "0 0 \(PageChartViewState.width) \(PageChartViewState.height)"
    return """
      <figure id="chart" class="chart" data-direction="\(chart?.direction ?? "none")"\
      \(chart == nil ? " hidden" : "")>
      <figcaption><span id="chart-title">\(HTML.escape(chart?.title ?? ""))</span> \
      <span id="chart-age" class="chart-age"\(chart?.ageText == nil ? " hidden" : "")>\
      \(HTML.escape(chart?.ageText ?? ""))</span></figcaption>
      <div class="chart-box"><span id="chart-high" class="chart-high">\
      \(HTML.escape(chart?.highText ?? ""))</span>\
      <svg id="chart-svg" viewBox="\(box)" preserveAspectRatio="none" role="img" \
      aria-label="\(HTML.escape(chart?.label ?? ""))">\
      <polygon id="chart-area" class="chart-area" points="\(HTML.escape(chart?.area ?? ""))"/>\
      <polyline id="chart-line" fill="none" stroke="currentColor" stroke-width="3" \
      vector-effect="non-scaling-stroke" stroke-linejoin="round" \
      points="\(HTML.escape(chart?.line ?? ""))"/></svg>\
      <span id="chart-low" class="chart-low">\(HTML.escape(chart?.lowText ?? ""))</span></div>
      <div id="chart-times" class="chart-times" aria-hidden="true">\(times)</div>
      </figure>
      """
  }

  /// The armed alert rules (serve's `--alert`), in the presenter's words, and the button that
  /// asks the browser for notifications (the script shows it only while the viewer has not
  /// decided: browsers ask only on a click); nothing without rules.
  public static func alertRulesLine(_ text: String?) -> String {
    guard let text else { return "" }
    return "<p id=\"alerts\" class=\"alerts\">\(HTML.escape(text)) "
      + "<button id=\"notify\" type=\"button\" hidden>"
      + HTML.escape(PricePageViewState.notifyButtonText) + "</button></p>"
  }

  /// `<time id="time" datetime="2026-11-22T14:03:05Z">Nov 22, 14:03:05 UTC</time>`, or `-`.
  static func timeElement(_ view: PricePageViewState, id: String) -> String {
    guard let timestamp = view.timestamp else { return "<time id=\"\(id)\">-</time>" }
    return "<time id=\"\(id)\" datetime=\"\(HTML.escape(timestamp))\">"
      + HTML.escape(view.timeText) + "</time>"
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
