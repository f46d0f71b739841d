#if canImport(SwiftUI)
  import SwiftUI

  /// The line through the last ticks' prices. The heights (0 for the lowest, 1 for the highest)
  /// come from `SparklinePoints` in BTCPriceFeature, tested on Linux; this only scales them.
  public struct SparklineView: Shape {
    private let heights: [Double]

    public init(heights: [Double]) {
      self.heights = heights
    }

    public func path(in rect: CGRect) -> Path {
      var path = Path()
      guard heights.count >= 2 else { return path }
      let step = rect.width / CGFloat(heights.count - 1)
      for (index, height) in heights.enumerated() {
        let point = CGPoint(
          x: rect.minX + CGFloat(index) * step, y: rect.maxY - CGFloat(height) * rect.height)
        if index == 0 { path.move(to: point) } else { path.addLine(to: point) }
      }
      return path
    }
  }
#endif
