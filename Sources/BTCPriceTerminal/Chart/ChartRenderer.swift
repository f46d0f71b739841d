import BTCPriceFeature

/// A price chart as lines of text: a pure function of the presenter's ``ChartViewState``, the
/// room it may take and how the terminal draws. Every word and number comes from the presenter.
///
/// ```
/// BTC/USD, last 24 hours · Binance
/// $69,120.00 ⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⢀⡠⠤⠒⠉⠉⠑⠢⢄⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀
///            ⠀⠀⠀⠀⠀⢀⡠⠔⠒⠊⠉⠁⠀⠀⠀⠀⠀⠀⠀⠀⠀⠈⠑⠢⢄⡀⠀⠀⢀⡠⠔⠊
/// $67,980.00 ⠤⠤⠒⠊⠁⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠈⠉⠉⠁⠀⠀⠀
///            18:00         00:00         06:00         12:00
/// ▲ +$1,140.00 (+1.68%) in 24 hours
/// ```
///
/// The line follows the candles' closes, 2 × 4 dots a character (braille); between the high and
/// the low printed beside it, the top row is the range's high and the bottom row its low. Without
/// a terminal, or with `NO_COLOR` or `TERM=dumb`, the line is drawn in `*`, one a character, and
/// the lines hold only the presenter's words (as `--format` prints them) and ASCII.
///
/// Short terminals drop the title first, then the chart (below ``minimumHeight`` lines: the
/// caller falls back to a sparkline); narrow ones drop the price labels beside the chart (the
/// summary line then says the low and the high), then the chart (below ``minimumPlotWidth``).
public enum ChartRenderer {
  /// How the chart is drawn.
  public enum Glyphs: Sendable {
    /// Unicode braille, 2 × 4 dots a character, and `▲`/`▼` as the presenter words them.
    case braille
    /// `*`, one a character: nothing but ASCII besides the presenter's words.
    case ascii

    /// Braille on a terminal that shows colours, ASCII otherwise (a pipe, a file, `NO_COLOR`,
    /// `TERM=dumb`): whatever reads those may not read Unicode either.
    public static func choose(isTerminal: Bool, environment: [String: String]) -> Glyphs {
      ColorPolicy.useColors(isTerminal: isTerminal, environment: environment) ? .braille : .ascii
    }
  }

  /// The fewest lines a chart takes: 3 rows of chart, its time axis and the change.
  public static let minimumHeight = 5
  /// The fewest columns of chart worth drawing.
  public static let minimumPlotWidth = 20

  public static func render(
    _ chart: ChartViewState, width: Int, height: Int, glyphs: Glyphs, colors: Bool
  ) -> [String] {
    guard height >= minimumHeight, width >= minimumPlotWidth, !chart.points.isEmpty else {
      return []
    }
    let showTitle = height > minimumHeight
    let rows = height - 2 - (showTitle ? 1 : 0)
    let labelWidth = max(chart.highText.count, chart.lowText.count) + 1
    let margin = width - labelWidth >= minimumPlotWidth ? labelWidth : 0
    let plotWidth = width - margin

    var lines: [String] = []
    if showTitle {
      let title = [chart.title, chart.ageText].compactMap { $0 }
      lines.append(fit(title.joined(separator: "  "), width: width))
    }
    let plot =
      glyphs == .braille
      ? braille(chart.points, columns: plotWidth, rows: rows)
      : ascii(chart.points, columns: plotWidth, rows: rows)
    for (row, text) in plot.enumerated() {
      let label =
        margin == 0
        ? "" : pad(row == 0 ? chart.highText : row == rows - 1 ? chart.lowText : "", to: margin)
      lines.append(label + ANSIStyle.paint(text, for: chart.direction, enabled: colors))
    }
    lines.append(axis(chart.timeLabels, margin: margin, width: width))
    lines.append(summary(chart, withRange: margin == 0, width: width, colors: colors))
    return lines
  }

  /// The closes as a braille line: each character 2 dots wide and 4 high; each dot column the
  /// closes that fall in it, joined to the column before so the line never breaks.
  private static func braille(_ points: [ChartViewState.Point], columns: Int, rows: Int)
    -> [String]
  {
    let dots = line(points, columns: columns * 2, rows: rows * 4)
    // The bit of each dot in a character: columns left and right, rows top to bottom.
    let bits: [[UInt32]] = [[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]]
    var cells = Array(repeating: Array(repeating: UInt32(0), count: columns), count: rows)
    for (column, span) in dots.enumerated() {
      guard let span else { continue }
      for dotRow in span {
        cells[dotRow / 4][column / 2] |= bits[dotRow % 4][column % 2]
      }
    }
    return cells.map { row in
      String(String.UnicodeScalarView(row.map { Unicode.Scalar(0x2800 + $0)! }))
    }
  }

  /// The closes as `*`, one a character.
  private static func ascii(_ points: [ChartViewState.Point], columns: Int, rows: Int) -> [String] {
    let dots = line(points, columns: columns, rows: rows)
    var cells = Array(repeating: Array(repeating: Character(" "), count: columns), count: rows)
    for (column, span) in dots.enumerated() {
      guard let span else { continue }
      for row in span { cells[row][column] = "*" }
    }
    return cells.map { String($0) }
  }

  /// For each of `columns` columns, the rows (0 at the top) the line of closes covers there, in
  /// a grid of `rows`; nil before the first point. A column between two points carries the line
  /// from one to the other.
  private static func line(_ points: [ChartViewState.Point], columns: Int, rows: Int)
    -> [ClosedRange<Int>?]
  {
    func column(_ x: Double) -> Int {
      min(max(Int((x * Double(columns - 1)).rounded()), 0), columns - 1)
    }
    func row(_ y: Double) -> Int {
      min(max(Int(((1 - y) * Double(rows - 1)).rounded()), 0), rows - 1)
    }
    // Each column's closes, in time order: its first and last, and its highest and lowest.
    var first: [Int?] = Array(repeating: nil, count: columns)
    var last: [Int?] = Array(repeating: nil, count: columns)
    var spans: [ClosedRange<Int>?] = Array(repeating: nil, count: columns)
    for point in points {
      let (x, y) = (column(point.x), row(point.close))
      first[x] = first[x] ?? y
      last[x] = y
      spans[x] = spans[x].map { min($0.lowerBound, y)...max($0.upperBound, y) } ?? y...y
    }
    var previous: (column: Int, row: Int)?
    for x in 0..<columns {
      guard let entry = first[x], let exit = last[x], let span = spans[x] else { continue }
      if let previous {
        // Carry the line over the empty columns in between, then join it to this one.
        for between in (previous.column + 1)..<x {
          let share = Double(between - previous.column) / Double(x - previous.column)
          let y = Int((Double(previous.row) + share * Double(entry - previous.row)).rounded())
          spans[between] = y...y
        }
        let from = x - previous.column > 1 ? spans[x - 1]!.lowerBound : previous.row
        spans[x] = min(span.lowerBound, from, entry)...max(span.upperBound, from, entry)
      }
      previous = (x, exit)
    }
    return spans
  }

  /// The time axis: each label under its place, left-aligned there (shifted left at the right
  /// edge); a label that would touch the one before is left out.
  private static func axis(_ labels: [ChartViewState.TimeLabel], margin: Int, width: Int)
    -> String
  {
    let plotWidth = width - margin
    var line = String(repeating: " ", count: margin)
    for label in labels where label.text.count < plotWidth {
      let place = margin + Int((label.x * Double(plotWidth - 1)).rounded())
      let start = min(place, width - label.text.count)
      let gap = start - line.count
      guard gap >= (line.count > margin ? 2 : 0) else { continue }
      line += String(repeating: " ", count: gap) + label.text
    }
    return line
  }

  /// The change over 24 hours and, where the chart has no price labels beside it, the low and
  /// the high (alone when there is no change to say); what does not fit is left out, the change
  /// last.
  private static func summary(
    _ chart: ChartViewState, withRange: Bool, width: Int, colors: Bool
  ) -> String {
    let change = chart.change.map {
      ANSIStyle.paint($0.text, for: $0.direction, enabled: colors) + " " + $0.label
    }
    var parts = [change, withRange ? chart.rangeText : nil].compactMap { $0 }
    if parts.isEmpty { parts = [chart.rangeText] }
    while parts.count > 1, ANSIStyle.visible(parts.joined(separator: "   ")).count > width {
      parts.removeLast()
    }
    return fit(parts.joined(separator: "   "), width: width)
  }

  private static func pad(_ text: String, to width: Int) -> String {
    text + String(repeating: " ", count: max(width - text.count, 0))
  }

  /// Cuts a line to `width` columns with `…`, losing its styling rather than break an escape.
  private static func fit(_ line: String, width: Int) -> String {
    let visible = ANSIStyle.visible(line)
    guard visible.count > width else { return line }
    return String(visible.prefix(width - 1)) + "…"
  }
}
