import Foundation

/// `▁▂▃▄▅▆▇█` for a series of values, scaled between their low and high.
public enum Sparkline {
  static let bars: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

  /// One bar per value; a flat series is drawn at mid height.
  public static func render(_ values: [Decimal]) -> String {
    guard let low = values.min(), let high = values.max() else { return "" }
    let span = high - low
    return String(
      values.map { value in
        guard span > 0 else { return bars[3] }
        var scaled = (value - low) * Decimal(bars.count - 1) / span
        var rounded = Decimal()
        NSDecimalRound(&rounded, &scaled, 0, .plain)
        let index = NSDecimalNumber(decimal: rounded).intValue
        return bars[min(max(index, 0), bars.count - 1)]
      })
  }
}
