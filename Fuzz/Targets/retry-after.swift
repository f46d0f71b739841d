// fuzz-modules: BTCPriceRuntime BTCPriceCore BTCPriceSources
import BTCPriceCore
import BTCPriceSources

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A rate limit's `Retry-After`, read by `RetryAfter.parse(_:now:)`. The input is the header's
/// value; or, when it holds a line feed, the seconds since 1970 of `now` (0 to 7,000,000,000)
/// before it and the value after it. Without one, `now` is Sun, 06 Nov 1994 08:49:37 GMT.
///
/// Properties of a value that is read:
/// - the wait is never negative and never longer than ``RetryAfter/longest``;
/// - delta-seconds (ASCII digits, blanks around them): exactly that many seconds, or the longest
///   wait for more (however many digits);
/// - a date in one of RFC 9110's three forms, as this oracle reads them (written from the RFC,
///   one space between fields, its own calendar arithmetic): the seconds from `now` to it, zero
///   for a date past, the longest wait for one further off.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard let text = inputText(data, size) else { return 0 }
  var value = text
  var now: Int64 = 784_111_777
  if let (first, rest) = splitAtFirstLineFeed(text) {
    guard let seconds = Int64(first), (0...7_000_000_000).contains(seconds) else { return 0 }
    (value, now) = (rest, seconds)
  }
  guard let wait = RetryAfter.parse(value, now: Date(timeIntervalSince1970: Double(now))) else {
    return 0
  }
  let shown = "\(String(reflecting: value)) at \(now)"
  guard wait >= .zero, wait <= RetryAfter.longest else {
    violated("\(shown): a wait of \(wait)")
  }
  let trimmed = trimmingBlanks(value)
  let longest = RetryAfter.longest.components.seconds
  if !trimmed.isEmpty, trimmed.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) {
    let expected = Int64(trimmed).map { min($0, longest) } ?? longest
    guard wait == .seconds(expected) else {
      violated("\(shown): a wait of \(wait), not the \(expected) s written")
    }
  } else if let date = WrittenHTTPDate(trimmed, now: now) {
    let expected = min(max(date.secondsSince1970 - now, 0), longest)
    guard wait == .seconds(expected) else {
      violated("\(shown): a wait of \(wait), not the \(expected) s to \(date.secondsSince1970)")
    }
  }
  return 0
}

/// An HTTP date as RFC 9110 §5.6.7 writes it, in its canonical spacing:
/// `Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94 08:49:37 GMT`, `Sun Nov  6 08:49:37 1994`
/// (or `Nov 16`). Names in any case of ASCII letters; the weekday is not checked against the
/// date, as the product does not.
struct WrittenHTTPDate {
  let secondsSince1970: Int64

  private static let months = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
  ]
  private static let days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
  private static let longDays = [
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
  ]

  init?(_ text: String, now: Int64) {
    let scalars = Array(text.unicodeScalars)
    guard scalars.allSatisfy(\.isASCII) else { return nil }
    let ascii = String(String.UnicodeScalarView(scalars))
    if let (day, month, year, time) = Self.imf(ascii) {
      guard let seconds = Self.seconds(year: year, month: month, day: day, time: time) else {
        return nil
      }
      secondsSince1970 = seconds
    } else if let (day, month, twoDigits, time) = Self.rfc850(ascii) {
      // RFC 9110: a two-digit year more than 50 years ahead is the latest past year with those
      // digits: the one year ending in them from 49 years back to 50 ahead.
      let thisYear = Self.civil(daysSince1970: Self.floorDivide(now, 86_400)).year
      var year = thisYear - thisYear % 100 + twoDigits
      if year > thisYear + 50 { year -= 100 }
      if year < thisYear - 49 { year += 100 }
      guard let seconds = Self.seconds(year: year, month: month, day: day, time: time) else {
        return nil
      }
      secondsSince1970 = seconds
    } else if let (day, month, year, time) = Self.asctime(ascii) {
      guard let seconds = Self.seconds(year: year, month: month, day: day, time: time) else {
        return nil
      }
      secondsSince1970 = seconds
    } else {
      return nil
    }
  }

  private static func imf(_ text: String) -> (Int64, Int64, Int64, Substring)? {
    let fields = text.split(separator: " ", omittingEmptySubsequences: false)
    guard fields.count == 6, fields[0].count == 4, fields[0].last == ",",
      days.contains(fields[0].dropLast().lowercased()), fields[5] == "GMT",
      let day = digits(fields[1], count: 2), let month = monthNumber(fields[2]),
      let year = digits(fields[3], count: 4)
    else { return nil }
    return (day, month, year, fields[4])
  }

  private static func rfc850(_ text: String) -> (Int64, Int64, Int64, Substring)? {
    let fields = text.split(separator: " ", omittingEmptySubsequences: false)
    guard fields.count == 4, fields[0].last == ",",
      longDays.contains(fields[0].dropLast().lowercased()), fields[3] == "GMT"
    else { return nil }
    let date = fields[1].split(separator: "-", omittingEmptySubsequences: false)
    guard date.count == 3, let day = digits(date[0], count: 2), let month = monthNumber(date[1]),
      let year = digits(date[2], count: 2)
    else { return nil }
    return (day, month, year, fields[2])
  }

  private static func asctime(_ text: String) -> (Int64, Int64, Int64, Substring)? {
    // `Nov  6`: a one-digit day takes a space before it, which the split leaves as an empty field.
    var fields = text.split(separator: " ", omittingEmptySubsequences: false)
    if fields.count == 6, fields[2].isEmpty, fields[3].count == 1 { fields.remove(at: 2) }
    guard fields.count == 5, days.contains(fields[0].lowercased()),
      let month = monthNumber(fields[1]),
      let day = digits(fields[2], count: fields[2].count == 1 ? 1 : 2),
      let year = digits(fields[4], count: 4)
    else { return nil }
    return (day, month, year, fields[3])
  }

  private static func monthNumber(_ text: Substring) -> Int64? {
    months.firstIndex(of: text.lowercased()).map { Int64($0) + 1 }
  }

  private static func digits(_ text: Substring, count: Int) -> Int64? {
    guard text.count == count, text.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
    return Int64(text)
  }

  private static func seconds(year: Int64, month: Int64, day: Int64, time: Substring) -> Int64? {
    let clock = time.split(separator: ":", omittingEmptySubsequences: false)
    guard clock.count == 3, let hour = digits(clock[0], count: 2),
      let minute = digits(clock[1], count: 2), let second = digits(clock[2], count: 2),
      hour < 24, minute < 60, second <= 60, day >= 1, day <= daysIn(month: month, year: year)
    else { return nil }
    return daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3_600
      + minute * 60 + second
  }

  private static func daysIn(month: Int64, year: Int64) -> Int64 {
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][Int(month - 1)]
  }

  /// Days from 1970-01-01, counted a year and a month at a time: slow, and obviously right.
  private static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
    var days: Int64 = 0
    if year >= 1970 {
      for past in 1970..<year { days += isLeap(past) ? 366 : 365 }
    } else {
      for coming in year..<1970 { days -= isLeap(coming) ? 366 : 365 }
    }
    for past in 1..<month { days += daysIn(month: past, year: year) }
    return days + day - 1
  }

  private static func isLeap(_ year: Int64) -> Bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
  }

  /// The year of a day since 1970, found by walking years: `now` is at most a few centuries
  /// from 1970.
  private static func civil(daysSince1970 days: Int64) -> (year: Int64, day: Int64) {
    var (year, rest) = (Int64(1970), days)
    while rest < 0 {
      year -= 1
      rest += isLeap(year) ? 366 : 365
    }
    while rest >= (isLeap(year) ? 366 : 365) {
      rest -= isLeap(year) ? 366 : 365
      year += 1
    }
    return (year, rest)
  }

  private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
    let quotient = value / divisor
    return value % divisor < 0 ? quotient - 1 : quotient
  }
}
