#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What the views that show movement remember between ticks: the value at the previous tick, the
/// first fresh value of this run, and the last fresh values for a sparkline.
public struct PriceHistory: Equatable, Sendable {
  public static let sparklineCapacity = 60

  /// The value shown at the tick before the latest one.
  public private(set) var previous: Decimal?
  /// The value shown at the latest tick.
  public private(set) var current: Decimal?
  /// The first value a source delivered in this run (a cached value from an earlier run is not
  /// a baseline: "since start" means since this run started).
  public private(set) var first: Decimal?
  /// Fresh values, oldest first, at most ``sparklineCapacity``.
  public private(set) var recent: [Decimal] = []

  public init() {}

  /// Records the state a tick produced. A stale tick repeats the current value, so its change
  /// since the previous tick is zero; the first tick has no change since a previous one. A value
  /// from an earlier run (the cache, shown while the first ticks fail) is no baseline: the first
  /// fresh value after it has no change since the last tick either.
  public mutating func record(_ state: PriceViewState) {
    previous = current
    guard !state.isStale else { return }
    guard let value = state.quote?.value else { return }
    current = value
    if first == nil { first = value }
    recent.append(value)
    if recent.count > Self.sparklineCapacity {
      recent.removeFirst(recent.count - Self.sparklineCapacity)
    }
  }

  /// Change from the previous tick to now; nil until two values are known.
  public var changeSinceLastTick: PriceChange? {
    guard let previous, let current else { return nil }
    return PriceChange(from: previous, to: current)
  }

  /// Change from the first fresh value of this run to now.
  public var changeSinceStart: PriceChange? {
    guard let first, let current else { return nil }
    return PriceChange(from: first, to: current)
  }
}
