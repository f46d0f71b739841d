import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What `btc-price doctor` found asking one exchange for the day's candles once (the price
/// history the chart and the 24-hour change are drawn from): where the request went, and what
/// came back.
public struct DoctorHistoryCheck: Equatable, Sendable {
  public enum Outcome: Equatable, Sendable {
    /// Drawable candles: how many, their period, and when the newest opened.
    case history(candles: Int, period: Duration, newest: Date)
    case failed(PriceSourceError)
    /// Not asked: an earlier run's limit rests the exchange's endpoint.
    case notAsked(String)
  }

  public let source: String
  public let url: String
  public let route: String
  public let outcome: Outcome
  public let latency: Duration?

  public init(source: String, url: String, route: String, outcome: Outcome, latency: Duration?) {
    self.source = source
    self.url = url
    self.route = route
    self.outcome = outcome
    self.latency = latency
  }

  /// `1 candle of 5 min`, `290 candles of 1 h`: how doctor counts candles, wherever it does.
  public static func candles(_ count: Int, of period: Duration) -> String {
    "\(count) candle\(count == 1 ? "" : "s") of \(period.humanText)"
  }

  /// `290 candles of 5 min, the newest from 2026-11-28T03:25:00Z`, `failed: HTTP 451`,
  /// `not asked: resting …`.
  public var verdict: String {
    switch outcome {
    case .history(let count, let period, let newest):
      "\(Self.candles(count, of: period)), the newest from " + ISO8601Timestamp.format(newest)
    case .failed(let error): "failed: \(error)"
    case .notAsked(let reason): "not asked: \(reason)"
    }
  }
}
