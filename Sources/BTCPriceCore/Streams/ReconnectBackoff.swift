/// How long to wait before the next connection attempt of a stream: exponential from `base`,
/// capped at `cap`, with "equal jitter" (half fixed, half random) so that many clients cut at the
/// same moment do not come back at the same moment.
///
/// The defaults stay far inside Binance's 300 connection attempts per 5 minutes per IP (at most
/// one attempt every 0.5 s at first, one every 30 s once the cap is reached) and are short enough
/// that a stream cut once is back before the REST chain has answered many ticks.
public struct ReconnectBackoff: Equatable, Sendable {
  public let base: Duration
  public let cap: Duration
  /// Failed attempts since the last connection that delivered a message.
  public private(set) var failures = 0

  public init(base: Duration = .milliseconds(500), cap: Duration = .seconds(30)) {
    self.base = base
    self.cap = cap
  }

  /// A random number in `0...1`, drawn anew at each call: the jitter of every back-off of the
  /// tool (streams, alert deliveries, edge publishers), which tests replace with a fixed one.
  public static let randomJitter: @Sendable () -> Double = { Double.random(in: 0...1) }

  /// The wait before the next attempt, given a random number in `0...1`; counts one more failure.
  public mutating func nextDelay(random: Double) -> Duration {
    let exponent = min(failures, 20)
    failures += 1
    let ceiling = min(cap, base * (1 << exponent))
    let half = ceiling / 2
    return half + half * min(max(random, 0), 1)
  }

  /// A connection delivered a message: the next failure starts from `base` again.
  public mutating func reset() {
    failures = 0
  }
}
