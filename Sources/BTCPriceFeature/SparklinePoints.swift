#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A sparkline as the points of a polyline in a 600 × 100 box: x left to right, high values at
/// the top, scaled between the values' low and high; a flat series is drawn at mid height.
public enum SparklinePoints {
  /// `0.0,95.0 300.0,5.0 600.0,50.0`. The values are only drawn, never shown, so `Double` is
  /// exact enough here (money is never formatted from these).
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
  private static func oneDecimal(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    let sign = tenths < 0 ? "-" : ""
    return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)"
  }
}
