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

    let direction = state.isStale ? nil : history.changeSinceLastTick?.direction
    let price =
      ANSIStyle.forDirection(direction)?.apply(state.priceText, enabled: colors) ?? state.priceText
    lines.append(
      fit(
        "BTC/USD  " + ANSIStyle.bold.apply(price, enabled: colors),
        plainLength: 9 + state.priceText.count, width: width))

    let changes = [
      history.changeSinceLastTick.map { ($0, "since last tick") },
      history.changeSinceStart.map { ($0, "since start") },
    ].compactMap { $0 }
    let segments = changes.map { change, label in
      (
        text: "\(styled(change, colors: colors)) \(label)",
        length: change.text.count + 1 + label.count
      )
    }
    let together = segments.map(\.length).reduce(0, +) + 3 * max(segments.count - 1, 0)
    if !segments.isEmpty, together <= width {
      lines.append(segments.map(\.text).joined(separator: "   "))
    } else {
      for segment in segments {
        lines.append(fit(segment.text, plainLength: segment.length, width: width))
      }
    }

    let updated = [
      state.sourceName.map { "Last updated \(state.timestampText) from \($0)" },
      state.sourceName.map { "Updated \(state.timestampText) · \($0)" },
      "Last updated \(state.timestampText)",
    ].compactMap { $0 }
    let fitting = updated.first { $0.count <= width } ?? updated.last ?? ""
    lines.append(fit(fitting, plainLength: fitting.count, width: width))

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

  private static func styled(_ change: PriceChange, colors: Bool) -> String {
    ANSIStyle.forDirection(change.direction)?.apply(change.text, enabled: colors) ?? change.text
  }

  /// Cuts a line to `width` columns. Lines with escape codes are only cut when their visible
  /// text is too long, and then lose their styling rather than a broken escape sequence.
  private static func fit(_ line: String, plainLength: Int, width: Int) -> String {
    guard plainLength > width else { return line }
    let plain = line.replacing(#/\u{1B}\[[0-9;?]*[A-Za-z]/#, with: "")
    return String(plain.prefix(width - 1)) + "…"
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
