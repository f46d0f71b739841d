#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where each value of a sparkline sits, so a view only scales the numbers to its size: heights
/// from 0 to 1 for the app, the points of a polyline in a 600 × 100 box for the web page.
///
/// Positions are `Double` because they are geometry, not money: nothing is computed with them
/// again, and the rounding of a position cannot change a price.
public enum SparklinePoints {
  /// The heights of `values`, oldest first; empty below two values (a single point is no line);
  /// all 0.5 when the values are equal, so a flat price draws a line across the middle.
  public static func heights(_ values: [Decimal]) -> [Double] {
    guard values.count >= 2, let low = values.min(), let high = values.max() else { return [] }
    let range = high - low
    guard range > 0 else { return Array(repeating: 0.5, count: values.count) }
    // Through the text, because FoundationEssentials has no Decimal-to-Double conversion.
    return values.map { value in Double(((value - low) / range).description) ?? 0.5 }
  }

  /// `0.0,95.0 300.0,5.0 600.0,50.0`: x left to right, high values at the top, scaled between the
  /// values' low and high; a flat series is drawn at mid height.
  public static func polyline(_ values: [Decimal]) -> String {
    let doubles = values.map { Double($0.plainText) ?? 0 }
    guard let low = doubles.min(), let high = doubles.max() else { return "" }
    let span = high - low
    let step = doubles.count > 1 ? 600 / Double(doubles.count - 1) : 0
    return doubles.enumerated().map { index, value in
      let y = span > 0 ? 95 - (value - low) / span * 90 : 50
      return oneDecimal(Double(index) * step) + "," + oneDecimal(y)
    }.joined(separator: " ")
  }

  /// `12.3`: a coordinate rounded to tenths (the box is 600 × 100; tenths are finer than pixels).
  static func oneDecimal(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    let sign = tenths < 0 ? "-" : ""
    return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)"
  }
}
