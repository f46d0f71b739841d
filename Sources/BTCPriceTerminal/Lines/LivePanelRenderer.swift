import BTCPriceFeature

/// `--live`: a compact panel, redrawn in place once per tick. A pure function of the view state,
/// the trend, the terminal width and whether colours are on; every text comes from the presenter.
///
/// ```
/// BTC/USD  $68,901.23   $1 = 1,451 sats   (the sats where the width leaves room)
/// 0.25 BTC = $17,225.31   ▲ +$285.00 (+1.68%) in 24 hours   (with --holdings; the changes,
///                                                           and the gain, where they fit)
/// ▲ +$12.34 (+0.02%) since last tick   ▲ +$101.00 (+0.15%) since start
/// ▲ +$1,140.00 (+1.68%) in 24 hours   (while the price history can say; on the line above
///                                      when the three fit)
/// Last updated Nov 22, 14:03:05 from Binance
/// Failed to update value. Displaying last updated value from Nov 22, 14:03:05   (while stale)
/// ▁▂▃▅▆▇█▆▅  low $68,800.00  high $68,950.00
/// Alert: above $100,000.00 (Nov 22, 14:03:05)   (the last alert of the run)
/// ```
///
/// Narrow terminals drop the sparkline first (below ``sparklineMinimumWidth`` columns), then put
/// the two changes on lines of their own; the banner wraps; anything else too long is cut with `…`.
///
/// With the day's chart (a run that keeps the price history) and a terminal tall enough for the
/// panel and ``chartMinimumHeight`` more lines, the chart of the day (its time axis, low and high,
/// the 24-hour change; at most ``chartMaximumHeight`` lines) takes the sparkline's place. A
/// shorter terminal shows the sparkline, and one too short even for that shows neither: the
/// panel never scrolls the screen.
public enum LivePanelRenderer {
  public static let sparklineMinimumWidth = 60
  /// The fewest lines the chart is drawn in: ``ChartRenderer/minimumHeight`` and its title.
  public static let chartMinimumHeight = ChartRenderer.minimumHeight + 1
  /// The most: enough for the day's shape, the rest of the terminal left to what was there.
  public static let chartMaximumHeight = 12

  /// - Parameters:
  ///   - chart: the day's chart, drawn where `height` leaves room for it.
  ///   - height: the terminal's rows; nil when not known (no chart; the sparkline as ever).
  public static func render(
    _ state: PriceViewState, trend: PriceTrendViewState, width: Int, colors: Bool,
    chart: ChartViewState? = nil, height: Int? = nil
  ) -> [String] {
    let width = max(width, 20)
    var below: [String] = []
    if let alert = state.alert {
      below.append(ANSIStyle.banner.apply(fit(alert.panelText, width: width), enabled: colors))
    }
    // The chart's own last line says the 24-hour change: the lines above leave it out then.
    let withChart = head(state, trend: trend, width: width, colors: colors, change24h: false)
    // One row stays free for the cursor, so the panel never scrolls the screen.
    if let chart, let height, height - 1 - withChart.count - below.count >= chartMinimumHeight {
      let room = height - 1 - withChart.count - below.count
      let drawn = ChartRenderer.render(
        chart, width: width, height: min(room, chartMaximumHeight),
        glyphs: colors ? .braille : .ascii, colors: colors)
      if !drawn.isEmpty { return withChart + drawn + below }
    }
    var lines = head(state, trend: trend, width: width, colors: colors, change24h: true)
    let room = height.map { $0 - 1 - lines.count - below.count }
    if room.map({ $0 >= 1 }) ?? true, width >= sparklineMinimumWidth,
      let rangeText = trend.rangeText
    {
      let bars = Sparkline.render(trend.recentValues)
      let range = "  " + rangeText
      if bars.count + range.count <= width {
        lines.append(bars + ANSIStyle.dim.apply(range, enabled: colors))
      }
    }
    return lines + below
  }

  /// The price, the changes (the 24-hour one when `change24h`), the source line and the banner.
  private static func head(
    _ state: PriceViewState, trend: PriceTrendViewState, width: Int, colors: Bool,
    change24h: Bool
  ) -> [String] {
    var lines: [String] = []
    let price = ANSIStyle.paint(
      state.priceText, for: state.isStale ? nil : trend.sinceLastTick?.direction,
      enabled: colors)
    var first = state.pairText + "  " + ANSIStyle.bold.apply(price, enabled: colors)
    let shown = state.pairText.count + 2 + state.priceText.count
    if let sats = state.satsText, shown + 3 + sats.count <= width {
      first += ANSIStyle.dim.apply("   " + sats, enabled: colors)
    }
    lines.append(fit(first, width: width))
    if let holdings = state.holdings {
      lines.append(holdingsLine(holdings, width: width, colors: colors))
    }

    let changes = [trend.sinceLastTick, trend.sinceStart, change24h ? state.change24h : nil]
    let segments = changes.compactMap { $0 }.map {
      change in
      "\(ANSIStyle.paint(change.text, for: change.direction, enabled: colors)) \(change.label)"
    }
    let together = segments.joined(separator: "   ")
    if !segments.isEmpty, ANSIStyle.visible(together).count <= width {
      lines.append(together)
    } else {
      lines += segments.map { fit($0, width: width) }
    }

    let updated = [state.sourceLineText, state.shortSourceLineText, state.lastUpdatedText]
      .compactMap { $0 }
    lines.append(fit(updated.first { $0.count <= width } ?? updated.last ?? "", width: width))

    if let banner = state.bannerText {
      for line in wrap(banner, width: width) {
        lines.append(ANSIStyle.banner.apply(line, enabled: colors))
      }
    }
    return lines
  }

  /// `0.25 BTC = $17,225.31   ▲ +$285.00 (+1.68%) in 24 hours   ▲ +$2,225.31 (+14.84%) since
  /// bought`: the value, then its changes while the width leaves room for them.
  private static func holdingsLine(_ holdings: HoldingsViewState, width: Int, colors: Bool)
    -> String
  {
    var line = "\(holdings.amountText) = \(holdings.valueText)"
    for change in [holdings.change24h, holdings.gain].compactMap({ $0 }) {
      let text = "   \(change.text) \(change.label)"
      guard ANSIStyle.visible(line).count + text.count <= width else { break }
      line +=
        "   " + ANSIStyle.paint(change.text, for: change.direction, enabled: colors)
        + " \(change.label)"
    }
    return fit(line, width: width)
  }

  /// Cuts a line to `width` columns. A line with escape codes that is too long loses its
  /// styling rather than end in a broken escape sequence.
  private static func fit(_ line: String, width: Int) -> String {
    let visible = ANSIStyle.visible(line)
    guard visible.count > width else { return line }
    return String(visible.prefix(width - 1)) + "…"
  }

  /// Word-wraps `text` to `width` columns.
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var current = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
      if current.isEmpty {
        current = String(word)
      } else if current.count + 1 + word.count <= width {
        current += " " + word
      } else {
        lines.append(current)
        current = String(word)
      }
      while current.count > width {
        lines.append(String(current.prefix(width)))
        current = String(current.dropFirst(width))
      }
    }
    lines.append(current)
    return lines
  }
}
