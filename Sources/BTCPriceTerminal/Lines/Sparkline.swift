#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `▁▂▃▄▅▆▇█` for a series of values, scaled between their low and high.
public enum Sparkline {
  static let bars: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

  /// One bar per value; a flat series is drawn at mid height.
  public static func render(_ values: [Decimal]) -> String {
    guard let low = values.min(), let high = values.max() else { return "" }
    let span = high - low
    guard span > 0 else { return String(repeating: bars[3], count: values.count) }
    // The bar is (value - low) / span × 7 rounded half up, so a value reaches bar k from
    // (k - 0.5) / 7 of the span: compared as 14 × (value - low) ≥ (2k - 1) × span, exactly, with
    // no division and no rounding of a 38-digit quotient.
    let steps = bars.count - 1
    let thresholds = (1...steps).map { Decimal(2 * $0 - 1) * span }
    return String(
      values.map { value in
        let twice = (value - low) * Decimal(2 * steps)
        return bars[thresholds.prefix { twice >= $0 }.count]
      })
  }
}
