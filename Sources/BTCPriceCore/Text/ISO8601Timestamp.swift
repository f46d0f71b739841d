#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `2026-11-22T14:03:05Z`, or `2026-11-22T14:03:05.123Z` with milliseconds: an instant in UTC as
/// `Date.ISO8601FormatStyle` writes it, and read back. The one ISO 8601 writer and reader: the
/// `--json` record, the cache and the state file.
///
/// Computed from the seconds since 1970 rather than with the format style: the presenter makes a
/// record every tick, and the style's first use alone is a large share of start-up
/// (docs/PERFORMANCE.md, "Start-up", has the figure).
public enum ISO8601Timestamp {
  /// To the whole second, rounded down: the `--json` record.
  public static func format(_ date: Date) -> String {
    let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
    return dateAndTime(seconds) + "Z"
  }

  /// To the millisecond, rounded down (within the Double's own error, so that what ``parse(_:)``
  /// read is written back as it was): the files, which keep when a price was received.
  public static func formatWithMilliseconds(_ date: Date) -> String {
    // Down to the millisecond, but not below the Double's own error: a time read from
    // `….008Z` is a Double a hair below it (before 1970, or centuries ahead, where a hair is more
    // than a microsecond), and flooring that wrote it back as `….007Z`. Eight units in the last
    // place cover the reading's error and are under 2 µs today.
    let scaled = date.timeIntervalSince1970 * 1_000
    let milliseconds = Int64((scaled + 8 * scaled.ulp).rounded(.down))
    let (seconds, fraction) = milliseconds.floorDivided(by: 1_000)
    return dateAndTime(seconds) + "." + padded(fraction, 3) + "Z"
  }

  /// `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, in UTC; nil for anything else (another zone, a date that
  /// does not exist, a missing part).
  public static func parse(_ text: String) -> Date? {
    let bytes = Array(text.utf8)
    guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z") else { return nil }
    func number(_ range: Range<Int>) -> Int64? {
      var value: Int64 = 0
      for index in range {
        guard bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else {
          return nil
        }
        value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
      }
      return value
    }
    let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")]
    guard separators.allSatisfy({ bytes[$0.0] == UInt8(ascii: $0.1.unicodeScalars.first!) }),
      let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      (1...12).contains(month), (1...CivilDate.days(inMonth: month, year: year)).contains(day),
      hour < 24, minute < 60, second < 60
    else { return nil }
    var fraction = 0.0
    if bytes.count > 20 {
      guard bytes[19] == UInt8(ascii: "."), bytes.count > 21, bytes.count - 21 <= 9,
        let digits = number(20..<(bytes.count - 1))
      else { return nil }
      var scale = 1.0
      for _ in 21..<bytes.count { scale *= 10 }
      fraction = Double(digits) / scale
    } else {
      guard bytes[19] == UInt8(ascii: "Z") else { return nil }
    }
    let days = CivilDate(year: year, month: month, day: day).daysSince1970
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second
    return Date(timeIntervalSince1970: Double(seconds) + fraction)
  }

  private static func dateAndTime(_ seconds: Int64) -> String {
    let (days, secondOfDay) = seconds.floorDivided(by: 86_400)
    let date = CivilDate(daysSince1970: days)
    return padded(date.year, 4) + "-" + padded(date.month, 2) + "-" + padded(date.day, 2) + "T"
      + padded(secondOfDay / 3_600, 2) + ":" + padded(secondOfDay / 60 % 60, 2) + ":"
      + padded(secondOfDay % 60, 2)
  }

  private static func padded(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return digits.utf8.count >= width
      ? digits : String(repeating: "0", count: width - digits.utf8.count) + digits
  }
}
