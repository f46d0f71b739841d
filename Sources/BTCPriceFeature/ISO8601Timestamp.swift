#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `2026-11-22T14:03:05Z`: an instant in UTC to the whole second (rounded down), as
/// `Date.ISO8601FormatStyle()` writes it, for the `--json` record.
///
/// Computed from the seconds since 1970 rather than with the format style: the presenter makes a
/// record every tick, and the style's first use alone is a large share of start-up
/// (docs/PERFORMANCE.md, "Start-up", has the figure).
enum ISO8601Timestamp {
  static func format(_ date: Date) -> String {
    let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
    let (days, secondOfDay) = floorDivision(seconds, 86_400)
    let (year, month, day) = civil(daysSince1970: days)
    return padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2) + "T"
      + padded(secondOfDay / 3_600, 2) + ":" + padded(secondOfDay / 60 % 60, 2) + ":"
      + padded(secondOfDay % 60, 2) + "Z"
  }

  private static func padded(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return digits.utf8.count >= width
      ? digits : String(repeating: "0", count: width - digits.utf8.count) + digits
  }

  private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
    let remainder = value % divisor
    return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
  }

  /// The proleptic Gregorian date of a day count from 1970-01-01 (Howard Hinnant's
  /// `civil_from_days`).
  private static func civil(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let (era, dayOfEra) = floorDivision(days + 719_468, 146_097)
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthFromMarch = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
    let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
