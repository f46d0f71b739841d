extension Duration {
  /// `800 ms`, `1500 ms`: the unit people read in deadlines.
  package var millisecondsText: String {
    "\(wholeMilliseconds) ms"
  }

  /// `750 ms`, `12 s`, `5 min`, `3 h`: the unit people read in cool-downs, rounded up.
  public var humanText: String {
    let milliseconds = wholeMilliseconds
    if milliseconds < 1000 { return "\(milliseconds) ms" }
    let seconds = (milliseconds + 999) / 1000
    if seconds < 120 { return "\(seconds) s" }
    if seconds < 120 * 60 { return "\((seconds + 59) / 60) min" }
    return "\((seconds + 3599) / 3600) h"
  }

  /// Whole milliseconds, truncated (`--json`'s latencies, the texts above).
  package var wholeMilliseconds: Int64 {
    let (seconds, attoseconds) = components
    return seconds * 1000 + attoseconds / 1_000_000_000_000_000
  }
}

extension Duration {
  /// Seconds as a `TimeInterval`, for dates on the wall clock.
  package var timeInterval: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
