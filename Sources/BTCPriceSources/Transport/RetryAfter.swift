import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads an HTTP `Retry-After` value (RFC 9110 §10.2.3): a number of seconds, or a date.
public enum RetryAfter {
  /// Longer than any ban Binance documents (3 days); a larger value is a broken header, not a
  /// reason to give up on a source for good.
  public static let longest: Duration = .seconds(7 * 24 * 3600)

  /// How long to wait from `now`; nil when the value is neither form. A date in the past means
  /// "now" (zero).
  public static func parse(_ value: String, now: Date) -> Duration? {
    let text = value.trimmingWhitespace
    if !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
    {
      // Digits only; too many of them is just "very long".
      return Int64(text).map { min(.seconds($0), longest) } ?? longest
    }
    guard let date = HTTPDate.parse(text, now: now) else { return nil }
    let seconds = date.timeIntervalSince(now)
    return seconds <= 0 ? .zero : min(.milliseconds(Int64((seconds * 1000).rounded(.up))), longest)
  }
}

/// The three forms of an HTTP date (RFC 9110 §5.6.7), always in GMT: IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`) and the two obsolete ones that recipients must still
/// accept, RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`).
///
/// Read field by field rather than with `DateFormatter`, which FoundationEssentials does not
/// have: the fixed English names and numeric fields need no locale.
enum HTTPDate {
  private static let months = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
  ]
  private static let weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
  private static let longWeekdays = [
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
  ]

  static func parse(_ text: String, now: Date) -> Date? {
    let fields = text.split(separator: " ")
    switch fields.count {
    case 6:  // Sun, 06 Nov 1994 08:49:37 GMT
      guard fields[0].hasSuffix(","), weekdays.contains(fields[0].dropLast().lowercased()),
        fields[5] == "GMT", let year = number(fields[3], digits: 4...4)
      else { return nil }
      return date(
        year: year, month: fields[2], day: number(fields[1], digits: 2...2), time: fields[4])
    case 4:  // Sunday, 06-Nov-94 08:49:37 GMT
      let parts = fields[1].split(separator: "-", omittingEmptySubsequences: false)
      guard fields[0].hasSuffix(","), longWeekdays.contains(fields[0].dropLast().lowercased()),
        fields[3] == "GMT", parts.count == 3, let twoDigits = number(parts[2], digits: 2...2)
      else { return nil }
      return date(
        year: fullYear(twoDigits, now: now), month: parts[1], day: number(parts[0], digits: 2...2),
        time: fields[2])
    case 5:  // Sun Nov  6 08:49:37 1994
      guard weekdays.contains(fields[0].lowercased()), let year = number(fields[4], digits: 4...4)
      else { return nil }
      return date(
        year: year, month: fields[1], day: number(fields[2], digits: 1...2), time: fields[3])
    default:
      return nil
    }
  }

  private static func date(year: Int, month name: Substring, day: Int?, time: Substring) -> Date? {
    let clock = time.split(separator: ":", omittingEmptySubsequences: false)
    guard let month = months.firstIndex(of: name.lowercased()).map({ $0 + 1 }), let day,
      clock.count == 3, let hour = number(clock[0], digits: 2...2),
      let minute = number(clock[1], digits: 2...2), let second = number(clock[2], digits: 2...2),
      (1...CivilDate.days(inMonth: Int64(month), year: Int64(year))).contains(Int64(day)),
      hour < 24, minute < 60, second <= 60
    else { return nil }
    let days = Int(
      CivilDate(year: Int64(year), month: Int64(month), day: Int64(day)).daysSince1970)
    return Date(
      timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
  }

  /// RFC 9110: a two-digit year that appears more than 50 years in the future is "the most recent
  /// year in the past that had the same last two digits". So the year is the latest one ending in
  /// those digits and no more than 50 years ahead: in 2026, `76` is 2076 and `77` is 1977; in
  /// 2060, `05` is 2105 (the year's own century alone would give 2005).
  private static func fullYear(_ twoDigits: Int, now: Date) -> Int {
    let days = Int64((now.timeIntervalSince1970 / 86_400).rounded(.down))
    let latest = Int(CivilDate(daysSince1970: days).year) + 50
    return latest - (latest - twoDigits) % 100
  }

  private static func number(_ text: Substring, digits: ClosedRange<Int>) -> Int? {
    guard digits.contains(text.utf8.count),
      text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
    else { return nil }
    return Int(text)
  }
}
