/// How long a failing source is left alone.
public struct CircuitBreakerPolicy: Equatable, Sendable {
  /// Ordinary failures in a row (timeouts, errors, bad data) that open the circuit.
  public var failureThreshold: Int
  /// The first cool-down after ordinary failures; each failed probe doubles it...
  public var firstCoolDown: Duration
  /// ...up to this.
  public var longestCoolDown: Duration
  /// After 401, 403 or 451: the source refuses us (no key, forbidden, restricted location), and
  /// asking again every few seconds will not change that.
  public var refusalCoolDown: Duration
  /// After 429 without a usable `Retry-After`.
  public var rateLimitCoolDown: Duration
  /// After 418 without a usable `Retry-After`: Binance's shortest ban.
  public var banCoolDown: Duration

  public init(
    failureThreshold: Int = 3,
    firstCoolDown: Duration = .seconds(5),
    longestCoolDown: Duration = .seconds(300),
    refusalCoolDown: Duration = .seconds(3600),
    rateLimitCoolDown: Duration = .seconds(60),
    banCoolDown: Duration = .seconds(120)
  ) {
    self.failureThreshold = failureThreshold
    self.firstCoolDown = firstCoolDown
    self.longestCoolDown = longestCoolDown
    self.refusalCoolDown = refusalCoolDown
    self.rateLimitCoolDown = rateLimitCoolDown
    self.banCoolDown = banCoolDown
  }

  public static let standard = CircuitBreakerPolicy()

  /// The cool-down after the `trips`-th opening in a row: 5 s, 10 s, 20 s... up to the longest.
  func coolDown(afterTrips trips: Int) -> Duration {
    var coolDown = firstCoolDown
    for _ in 1..<max(trips, 1) {
      coolDown *= 2
      if coolDown >= longestCoolDown { return longestCoolDown }
    }
    return min(coolDown, longestCoolDown)
  }

  /// The cool-down that `error` imposes by itself, without counting: the limits a source sets
  /// (rate limits, bans) and refusals. nil for failures that only count towards the threshold.
  public func mandatoryCoolDown(after error: PriceSourceError) -> Duration? {
    switch error {
    case .rateLimited(let status, let retryAfter, _):
      return retryAfter ?? (status == 418 ? banCoolDown : rateLimitCoolDown)
    case .httpStatus(401, _), .httpStatus(403, _), .httpStatus(451, _), .refused:
      return refusalCoolDown
    default:
      return nil
    }
  }
}
