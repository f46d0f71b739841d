import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Formats when a price was received: `Nov 22, 14:03` in the apps, `Nov 22, 14:03:05` in the CLI.
///
/// English month abbreviations and a 24-hour clock whatever the locale, in the system's local
/// time, or in the given time zone: a fixed one, or one asked for at each call (the apps follow
/// the user's zone as they travel).
///
/// The fields are computed here from the zone's offset at that instant, not by a locale-aware date
/// formatter: the output is fixed by design, and the command-line tool formats a timestamp every
/// second, where Foundation's formatter would cost more than the rest of the presenter and needs
/// ICU's locale data (docs/PERFORMANCE.md, "FoundationEssentials, not Foundation").
public struct TimestampFormatter: Sendable {
  public enum Precision: Sendable {
    /// `MMM d, HH:mm`, for the apps.
    case minutes
    /// `MMM d, HH:mm:ss`, for the terminal, which updates every second.
    case seconds
  }

  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  private let precision: Precision
  private let secondsFromGMT: @Sendable (Date) -> Int

  /// In the system's local time: `TZ`, else the system's zone (`/etc/localtime`).
  ///
  /// On Linux the C library says what that is. A program that links FoundationEssentials
  /// without FoundationInternationalization (the command-line tool, which leaves out ICU and its
  /// data: docs/PERFORMANCE.md, "Size") has no time zones but GMT, so `TimeZone.current` would
  /// be GMT there.
  public init(precision: Precision) {
    #if canImport(Glibc) || canImport(Musl)
      self.init(precision: precision, secondsFromGMT: Self.localOffsetFromTheCLibrary)
    #else
      self.init(precision: precision, timeZone: .current)
    #endif
  }

  /// In UTC, with no time zone data at all: `TimeZone(identifier: "UTC")` is nil in a program
  /// that links FoundationEssentials alone (the command-line tool), so it must not be asked.
  public static func utc(precision: Precision) -> TimestampFormatter {
    TimestampFormatter(precision: precision, secondsFromGMT: { _ in 0 })
  }

  public init(precision: Precision, timeZone: TimeZone) {
    self.init(precision: precision, secondsFromGMT: { timeZone.secondsFromGMT(for: $0) })
  }

  /// - Parameter timeZone: asked at every call, e.g. `{ .autoupdatingCurrent }`.
  public init(precision: Precision, timeZone: @escaping @Sendable () -> TimeZone) {
    self.init(precision: precision, secondsFromGMT: { timeZone().secondsFromGMT(for: $0) })
  }

  private init(precision: Precision, secondsFromGMT: @escaping @Sendable (Date) -> Int) {
    self.precision = precision
    self.secondsFromGMT = secondsFromGMT
  }

  #if canImport(Glibc) || canImport(Musl)
    /// The local zone's offset at that instant, daylight saving time included, as `localtime_r`
    /// computes it from the zone's rules.
    private static func localOffsetFromTheCLibrary(at date: Date) -> Int {
      var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
      var fields = tm()
      guard localtime_r(&seconds, &fields) != nil else { return 0 }
      return Int(fields.tm_gmtoff)
    }
  #endif

  public func format(_ date: Date) -> String {
    let (day, secondOfDay) = local(date)
    var text = "\(Self.monthAndDay(day)), \(Self.hoursAndMinutes(secondOfDay))"
    if precision == .seconds { text.append(":\(Self.twoDigits(secondOfDay % 60))") }
    return text
  }

  /// `Nov 22`: the day alone, for a chart's time axis over days.
  public func day(_ date: Date) -> String {
    Self.monthAndDay(local(date).day)
  }

  /// `14:00`: the time of day alone, for a chart's time axis over hours.
  public func timeOfDay(_ date: Date) -> String {
    Self.hoursAndMinutes(local(date).secondOfDay)
  }

  /// How far the zone is ahead of UTC at `date`, in seconds (daylight saving time included): for
  /// placing a chart's ticks on the hours and days people live by.
  public func secondsAheadOfUTC(at date: Date) -> Int {
    secondsFromGMT(date)
  }

  /// The civil day and the second within it that `date` falls on in the zone. Whole seconds,
  /// rounded down like a clock (14:03:05.999 is still 14:03:05).
  private func local(_ date: Date) -> (day: CivilDate, secondOfDay: Int64) {
    let utcSeconds = Int64((date.timeIntervalSince1970).rounded(.down))
    let local = utcSeconds + Int64(secondsFromGMT(date))
    let (days, secondOfDay) = local.floorDivided(by: 86_400)
    return (CivilDate(daysSince1970: days), secondOfDay)
  }

  private static func monthAndDay(_ day: CivilDate) -> String {
    "\(months[Int(day.month) - 1]) \(day.day)"
  }

  private static func hoursAndMinutes(_ secondOfDay: Int64) -> String {
    "\(twoDigits(secondOfDay / 3_600)):\(twoDigits(secondOfDay / 60 % 60))"
  }

  /// `2026-11-22 14:33:22.123 +0100`: the date, the time to the millisecond and the zone's offset,
  /// for log lines (`--verbose`), where the day and the milliseconds matter and the month's name
  /// does not.
  public func logTimestamp(_ date: Date) -> String {
    let milliseconds = Int64((date.timeIntervalSince1970 * 1_000).rounded(.down))
    let offset = Int64(secondsFromGMT(date))
    let (utcSeconds, fraction) = milliseconds.floorDivided(by: 1_000)
    let (days, secondOfDay) = (utcSeconds + offset).floorDivided(by: 86_400)
    let day = CivilDate(daysSince1970: days)
    let offsetMinutes = abs(offset) / 60
    // Interpolated, not added up: a chain of `+` this long took the type checker too long once
    // the mutation runner had changed one of them.
    let calendarDay = "\(day.year)-\(Self.twoDigits(day.month))-\(Self.twoDigits(day.day))"
    let clock = "\(Self.twoDigits(secondOfDay / 3_600)):\(Self.twoDigits(secondOfDay / 60 % 60))"
    let seconds = Self.twoDigits(secondOfDay % 60)
    let thousandths =
      fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
    let sign = offset < 0 ? "-" : "+"
    let zone = "\(sign)\(Self.twoDigits(offsetMinutes / 60))\(Self.twoDigits(offsetMinutes % 60))"
    return "\(calendarDay) \(clock):\(seconds).\(thousandths) \(zone)"
  }

  private static func twoDigits(_ value: Int64) -> String {
    value < 10 ? "0" + String(value) : String(value)
  }
}
