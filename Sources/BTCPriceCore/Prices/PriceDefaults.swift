/// The one place each default lives. The command line (and its `--help`), `serve` and the iPhone
/// app read them here, so a default changed in one of them can no longer drift from the others;
/// `PriceDefaultsTests` pins each value, so changing one is a decision a test has to be told of.
public enum PriceDefaults {
  /// Between ticks (`--interval`): one price a second.
  public static let interval: Duration = .seconds(1)
  /// What the first source may take before the next is asked (`--primary-timeout`): Binance
  /// answers in about 100 ms, and a fallback still fits in the 1 s tick.
  public static let primaryTimeout: Duration = .milliseconds(800)
  /// The shortest time between two cache writes while the price changes: what a `kill -9` loses.
  public static let cacheWriteInterval: Duration = .seconds(10)
  /// When a failing source is left alone (the values are `CircuitBreakerPolicy`'s): 3 failures, then 5 s doubling to 5 min; an hour after
  /// a refusal; 1 min after a 429 and 2 min after a 418 without `Retry-After`.
  public static let breakerPolicy = CircuitBreakerPolicy.standard
  /// Whether ticks read the exchanges' trade streams first (`--stream`/`--no-stream`): yes, so a
  /// healthy stream costs no request per tick; REST stays the fall back, and `--once` uses it
  /// alone.
  public static let stream = true
  /// How many ticks a silent stream may still be read for, as a multiple of the interval (see
  /// ``StreamFirstPriceLoader/Stream/aliveBound(silenceBound:interval:)``).
  public static let streamSilenceInTicks = 1.5
  /// The least silence that makes a stream count as silent, whatever the interval: 1.5 times the
  /// one-second heartbeat of Coinbase's and Kraken's streams. Less is a quiet market, not a dead
  /// stream, and a shorter `--interval` must not turn quiet seconds into REST requests.
  public static let shortestStreamSilence: Duration = .milliseconds(1_500)
  /// How recent the last price must be to vouch for or against a new one (``PricePlausibility``):
  /// ten minutes, in which bitcoin moves about 0.25 % (one standard deviation at a daily 3 %), so
  /// a move past the 2 % tolerance is rare and a second source then confirms it in the same tick.
  public static let plausibilityWindow: Duration = .seconds(600)
}

extension Duration {
  /// Seconds as `--help` and the settings file write them: `1`, `0.8`, `2.5`.
  public var secondsText: String {
    let milliseconds = wholeMilliseconds
    let whole = milliseconds / 1000
    let fraction = milliseconds % 1000
    guard fraction != 0 else { return "\(whole)" }
    var digits = String(fraction + 1000).dropFirst()
    while digits.hasSuffix("0") { digits = digits.dropLast() }
    return "\(whole).\(digits)"
  }
}
