import BTCPriceFeature

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A `--verbose` line: `2026-11-22 14:33:22.123 +0100 btc-price info: binance delivered …`, in
/// local time to the millisecond (attempts a few milliseconds apart stay apart), the level, then
/// the message. Our own short shape: these lines go through the terminal session (above the live
/// panel), not through a logging library's handler.
public enum VerboseLine {
  public static func format(
    _ level: SourceReport.Level, _ message: String, at date: Date = Date(),
    timestamps: TimestampFormatter = TimestampFormatter(precision: .seconds)
  ) -> String {
    "\(timestamps.logTimestamp(date)) btc-price \(level): \(message)\n"
  }
}
