/// A day of the proleptic Gregorian calendar and its count from 1970-01-01, both ways: the one
/// place the calendar's arithmetic is written (Howard Hinnant's `civil_from_days` and
/// `days_from_civil`), for the terminal's times, the `--json` and file timestamps, and the
/// `Retry-After` dates. FoundationEssentials has no calendar the tool could use without ICU.
public struct CivilDate: Equatable, Sendable {
  public let year: Int64
  /// 1 to 12.
  public let month: Int64
  /// 1 to 31.
  public let day: Int64

  public init(year: Int64, month: Int64, day: Int64) {
    self.year = year
    self.month = month
    self.day = day
  }

  /// The date `days` after 1970-01-01 (before it, when negative).
  public init(daysSince1970 days: Int64) {
    let (era, dayOfEra) = (days + 719_468).floorDivided(by: 146_097)
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthFromMarch = (5 * dayOfYear + 2) / 153
    day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
    month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
    year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  }

  /// Days from 1970-01-01 to this date.
  public var daysSince1970: Int64 {
    let shiftedYear = month <= 2 ? year - 1 : year
    let (era, yearOfEra) = shiftedYear.floorDivided(by: 400)
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The days of `month` in `year`.
  public static func days(inMonth month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }
}

extension Int64 {
  /// Quotient rounded towards minus infinity, and a remainder that is never negative.
  package func floorDivided(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
    let remainder = self % divisor
    return remainder < 0 ? (self / divisor - 1, remainder + divisor) : (self / divisor, remainder)
  }
}
