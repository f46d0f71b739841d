import BTCPriceCore
import BTCPriceFeature
import BTCPriceTerminal

/// `GET /` for a client that reads text, the way `curl rate.sx` answers: the price line, the
/// 24-hour change and the day's chart in plain characters. A browser still gets the page.
enum PlainTextAnswer {
  /// The chart's size: a terminal's usual width, a few lines.
  static let chartWidth = 72
  static let chartHeight = 12

  /// Whether the request is from a plain-text client: its `Accept` asks for `text/plain` and not
  /// for HTML, or it asks for no type in particular (none, or only `*/*`) and its `User-Agent`
  /// is curl's, Wget's or HTTPie's.
  static func isWanted(accept: String?, userAgent: String?) -> Bool {
    let types = (accept ?? "").lowercased().split(separator: ",").map {
      $0.split(separator: ";", maxSplits: 1).first.map { String($0).trimmingWhitespace } ?? ""
    }
    if types.contains(where: { $0 == "text/html" || $0 == "application/xhtml+xml" }) {
      return false
    }
    if types.contains("text/plain") { return true }
    guard types.allSatisfy({ $0.isEmpty || $0 == "*/*" }) else { return false }
    let agent = (userAgent ?? "").lowercased()
    return ["curl/", "wget/", "httpie/"].contains { agent.hasPrefix($0) }
  }

  /// The answer's text: the tick's plain line (with the failure banner when stale), its
  /// 24-hour change, then the day's chart when the history knows it.
  static func render(_ event: PriceEvent) -> String {
    var lines = [PlainLineRenderer.render(event.state)]
    if let change = event.state.change24h { lines.append("\(change.text) \(change.label)") }
    if let chart = event.chart {
      let drawn = ChartRenderer.render(
        chart, width: chartWidth, height: chartHeight, glyphs: .ascii, colors: false)
      if !drawn.isEmpty { lines += [""] + drawn }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
