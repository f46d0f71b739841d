#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A stretch of history from one exchange: candles of one period, oldest first, in one currency,
/// and when the exchange gave them.
///
/// Only a series that can be drawn exists: at least one candle, each possible (``Candle``), each
/// starting at least a period after the one before. An exchange that sends them out of order,
/// twice or overlapping is refused (``CandleError``), never sorted into shape: a chart drawn from
/// it would be a guess. Gaps are allowed: an exchange publishes no candle for a period without
/// trades (Coinbase says so; Kraken's recorded answers have them).
public struct CandleSeries: Equatable, Sendable {
  public let currency: Currency
  /// How long each candle lasts.
  public let period: Duration
  /// Oldest first; never empty.
  public let candles: [Candle]
  /// The exchange the candles came from.
  public let source: PriceSource
  /// When the exchange answered, on the wall clock: how old the history is.
  public let fetchedAt: Date

  public init(
    currency: Currency, period: Duration, candles: [Candle], source: PriceSource, fetchedAt: Date
  ) throws(CandleError) {
    try Self.checkOrder(candles, period: period)
    self.init(
      unchecked: currency, period: period, candles: candles, source: source, fetchedAt: fetchedAt)
  }

  private init(
    unchecked currency: Currency, period: Duration, candles: [Candle], source: PriceSource,
    fetchedAt: Date
  ) {
    self.currency = currency
    self.period = period
    self.candles = candles
    self.source = source
    self.fetchedAt = fetchedAt
  }

  /// Refuses candles that are not oldest first, one period apart at least, and not empty.
  public static func checkOrder(_ candles: [Candle], period: Duration) throws(CandleError) {
    guard var previous = candles.first else { throw .empty }
    for candle in candles.dropFirst() {
      if candle.start == previous.start { throw .duplicateTime(candle.start) }
      if candle.start < previous.start {
        throw .outOfOrder(start: candle.start, after: previous.start)
      }
      if candle.start < previous.start.addingTimeInterval(period.timeInterval) {
        throw .overlapping(start: candle.start, after: previous.start, period: period)
      }
      previous = candle
    }
  }

  /// When the first candle starts.
  public var start: Date { candles[0].start }

  /// When the last candle ends (it may still be under way).
  public var end: Date { candles[candles.count - 1].start.addingTimeInterval(period.timeInterval) }

  /// The lowest price of the series.
  public var low: Decimal { candles.lazy.map(\.low).min() ?? candles[0].low }

  /// The highest price of the series.
  public var high: Decimal { candles.lazy.map(\.high).max() ?? candles[0].high }

  /// The series with a live trade at `price` at `time`: the last candle takes it in while its
  /// period lasts; after that a new candle opens with it, at the start of the period it falls in
  /// (on the same grid as the exchange's candles), and candles that ended more than `keeping`
  /// before `time` are dropped, so the series never grows past its range. A trade older than the
  /// last candle changes nothing: the exchange knew more about that period than one price.
  public func extended(with price: Decimal, at time: Date, keeping: Duration) -> CandleSeries {
    let last = candles[candles.count - 1]
    guard price > 0, time >= last.start else { return self }
    var candles = candles
    let seconds = period.timeInterval
    let periodsSince = (time.timeIntervalSince(last.start) / seconds).rounded(.down)
    if periodsSince < 1 {
      candles[candles.count - 1] = last.including(price)
    } else {
      let opened = last.start.addingTimeInterval(periodsSince * seconds)
      candles.append(.opening(at: opened, price: price))
      let oldestEnd = time.addingTimeInterval(-keeping.timeInterval)
      let dropped = candles.prefix {
        $0.start.addingTimeInterval(seconds) < oldestEnd
      }.count
      candles.removeFirst(min(dropped, candles.count - 1))
    }
    return CandleSeries(
      unchecked: currency, period: period, candles: candles, source: source, fetchedAt: fetchedAt)
  }

  /// The price the series knew nearest to `time`, if it knew one within `tolerance` of it: each
  /// candle tells its open at its start and its close at its end, so a time inside a candle
  /// gets the nearer of the two, and a time in a gap the nearer edge of the gap.
  public func price(near time: Date, within tolerance: Duration) -> (price: Decimal, at: Date)? {
    let seconds = period.timeInterval
    // The first candle that starts after `time`; the one before it is the last that starts at
    // or before `time`.
    var lower = 0
    var upper = candles.count
    while lower < upper {
      let middle = (lower + upper) / 2
      if candles[middle].start <= time { lower = middle + 1 } else { upper = middle }
    }
    var known: [(price: Decimal, at: Date)] = []
    if lower > 0 {
      let before = candles[lower - 1]
      known.append((before.open, before.start))
      known.append((before.close, before.start.addingTimeInterval(seconds)))
    }
    if lower < candles.count {
      known.append((candles[lower].open, candles[lower].start))
    }
    let nearest = known.min {
      abs($0.at.timeIntervalSince(time)) < abs($1.at.timeIntervalSince(time))
    }
    guard let nearest, abs(nearest.at.timeIntervalSince(time)) <= tolerance.timeInterval else {
      return nil
    }
    return nearest
  }
}
