extension PriceDefaults {
  /// Whether a run keeps the price history for the chart and the 24-hour change
  /// (`--history`/`--no-history`): yes, at one request of candles a quarter of an hour.
  public static let history = true
  /// How soon a history that could not be fetched is asked for again: 2 minutes, so an offline
  /// start shows the day soon after the network comes back, while a chain whose every source
  /// fails costs at most 30 attempts an hour (and the breakers leave a refusing source alone for
  /// its own cool-down meanwhile).
  public static let historyRetryAfterFailure: Duration = .seconds(120)
  /// What each exchange may take to send a range of candles: 5 s. An answer is 20 to 50 KB where
  /// a price is a hundred bytes, and nothing waits on it (the chart shows the day it knew, the
  /// ticks go on): a slow link gets its chance, a hung one is left.
  public static let historySourceTimeout: Duration = .seconds(5)
  /// The most one fetch of a range may take, every source tried: 15 s.
  public static let historyBudget: Duration = .seconds(15)
  /// How long the first tick waits for the history's first look (its file read, and its fetch
  /// when due): 2 s. Long enough for one request of candles on a working link, so `--once`
  /// shows the 24-hour change; short enough that a hung exchange delays the first price little
  /// (later ticks show the change once the history comes).
  public static let historyFirstTickWait: Duration = .seconds(2)
}
