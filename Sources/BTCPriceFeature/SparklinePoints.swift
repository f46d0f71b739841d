#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where each value of a sparkline sits, from 0 (the lowest value shown) to 1 (the highest), so a
/// view only scales the numbers to its size.
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
}
