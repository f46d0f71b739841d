import BTCPriceFeature

/// `--live`: a compact panel, redrawn in place once per tick. A pure function of the view state,
/// the display history, the terminal width and whether colours are on.
///
/// ```
/// BTC/USD  $68,901.23
/// ▲ +$12.34 (+0.02%) since last tick   ▲ +$101.00 (+0.15%) since start
/// Last updated Nov 22, 14:03:05 from Binance
/// Failed to update value. Displaying last updated value from Nov 22, 14:03:05   (while stale)
/// ▁▂▃▅▆▇█▆▅  low $68,800.00  high $68,950.00
/// ```
///
/// Narrow terminals drop the sparkline first (below ``sparklineMinimumWidth`` columns), then put
/// the two changes on lines of their own; the banner wraps; anything else too long is cut with `…`.
public enum LivePanelRenderer {
  public static let sparklineMinimumWidth = 60

  public static func render(
    _ state: PriceViewState, history: DisplayHistory, width: Int, colors: Bool
  ) -> [String] {
    let width = max(width, 20)
    var lines: [String] = []

    let price = ANSIStyle.paint(
      state.priceText, for: state.isStale ? nil : history.changeSinceLastTick?.direction,
      enabled: colors)
    lines.append(fit("BTC/USD  " + ANSIStyle.bold.apply(price, enabled: colors), width: width))

    let segments = [
      history.changeSinceLastTick.map { ($0, "since last tick") },
      history.changeSinceStart.map { ($0, "since start") },
    ].compactMap { $0 }.map { change, label in
      "\(ANSIStyle.paint(change.text, for: change.direction, enabled: colors)) \(label)"
    }
    let together = segments.joined(separator: "   ")
    if !segments.isEmpty, ANSIStyle.visible(together).count <= width {
      lines.append(together)
    } else {
      lines += segments.map { fit($0, width: width) }
    }

    let updated = [
      state.sourceName.map { "Last updated \(state.timestampText) from \($0)" },
      state.sourceName.map { "Updated \(state.timestampText) · \($0)" },
      "Last updated \(state.timestampText)",
    ].compactMap { $0 }
    lines.append(fit(updated.first { $0.count <= width } ?? updated.last ?? "", width: width))

    if let banner = state.bannerText {
      for line in wrap(banner, width: width) {
        lines.append(ANSIStyle.banner.apply(line, enabled: colors))
      }
    }

    if width >= sparklineMinimumWidth, let low = history.recent.min(),
      let high = history.recent.max()
    {
      let bars = Sparkline.render(history.recent)
      let range = "  low \(PriceFormatter.format(low))  high \(PriceFormatter.format(high))"
      if bars.count + range.count <= width {
        lines.append(bars + ANSIStyle.dim.apply(range, enabled: colors))
      }
    }
    return lines
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

/// Turns a panel into the bytes that replace the previous panel on screen: cursor up over the
/// old one, each line cleared and rewritten, anything left below cleared.
public enum LiveFrame {
  public static func compose(_ lines: [String], replacingHeight previousHeight: Int) -> String {
    let up = previousHeight > 0 ? "\u{1B}[\(previousHeight)F" : ""
    return up + lines.map { "\u{1B}[2K" + $0 + "\n" }.joined() + "\u{1B}[J"
  }
}
