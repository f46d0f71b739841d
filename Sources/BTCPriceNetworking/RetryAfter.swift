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
      (1...daysIn(month: month, year: year)).contains(day), hour < 24, minute < 60, second <= 60
    else { return nil }
    let days = daysSince1970(year: year, month: month, day: day)
    return Date(
      timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
  }

  /// RFC 9110: a two-digit year more than 50 years in the future is one of the past century.
  private static func fullYear(_ twoDigits: Int, now: Date) -> Int {
    let days = Int((now.timeIntervalSince1970 / 86_400).rounded(.down))
    let thisYear = year(daysSince1970: days)
    let candidate = thisYear - thisYear % 100 + twoDigits
    return candidate > thisYear + 50 ? candidate - 100 : candidate
  }

  private static func number(_ text: Substring, digits: ClosedRange<Int>) -> Int? {
    guard digits.contains(text.utf8.count),
      text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
    else { return nil }
    return Int(text)
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
  private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The year of a day count from 1970-01-01 (Howard Hinnant's `civil_from_days`).
  private static func year(daysSince1970 days: Int) -> Int {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthFromMarch = (5 * dayOfYear + 2) / 153
    return yearOfEra + era * 400 + (monthFromMarch >= 10 ? 1 : 0)
  }
}
