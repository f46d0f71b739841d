import BTCPriceCore
import BTCPriceTestSupport
import Foundation
import Testing

/// `CivilDate` and `ISO8601Timestamp`: the one calendar and the one ISO 8601 writer and reader,
/// checked against Foundation's Gregorian calendar and `ISO8601FormatStyle` (linked into the
/// tests, not into the tool).
@Suite("Count days and write and read timestamps", .hangLimit(.seconds(30)))
struct WriteAndReadTimestampsTests {
  /// From 1641 (Foundation's Gregorian calendar is Julian before 1582; ours stays proleptic).
  @Test func civilDate_agreesWithFoundationsCalendar_bothWays_over700Years() throws {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
    for days in stride(from: Int64(-120_000), through: 146_097, by: 97) {
      let date = CivilDate(daysSince1970: days)
      let expected = calendar.dateComponents(
        [.year, .month, .day], from: Date(timeIntervalSince1970: Double(days) * 86_400))

      #expect(
        [date.year, date.month, date.day]
          == [expected.year, expected.month, expected.day].map { Int64($0!) }, "\(days)")
      #expect(date.daysSince1970 == days)
    }
  }

  @Test(arguments: [(2, 2024, 29), (2, 2023, 28), (2, 1900, 28), (2, 2000, 29), (4, 2026, 30)])
  func daysInMonth_followsTheLeapYearRules(month: Int64, year: Int64, days: Int64) {
    #expect(CivilDate.days(inMonth: month, year: year) == days)
  }

  @Test func daysInMonth_areThoseOfTheCalendar() {
    #expect(
      (1...12).map { CivilDate.days(inMonth: $0, year: 2026) }
        == [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
  }

  /// Whole seconds byte for byte. Milliseconds within one: Foundation floors the fraction of the
  /// time since 2001, a different binary fraction than the time since 1970 that we floor.
  /// Every millisecond of a second, read and written again, is the text it was read from (the
  /// cache files are read and saved on every run). Before 1970, 240 of the 1,000 were written a
  /// millisecond early, and centuries ahead some still were when the writer went by whole
  /// microseconds: the Double read lies a hair below the millisecond, by more than a microsecond
  /// that far out. Found by the cache fuzz target (Fuzz/Findings/cache).
  @Test(arguments: [
    "2026-12-07T21:14:05", "1944-11-22T14:03:05", "2009-01-03T18:15:05", "9274-11-22T14:07:00",
    "0001-01-01T00:00:00",
  ])
  func aTimeReadToTheMillisecond_isWrittenBackAsItWasRead(secondText: String) throws {
    for millisecond in 0..<1_000 {
      let fraction = String(millisecond + 1_000).dropFirst()
      let text = "\(secondText).\(fraction)Z"
      let date = try #require(ISO8601Timestamp.parse(text))

      #expect(ISO8601Timestamp.formatWithMilliseconds(date) == text)
    }
  }

  @Test func format_writesWhatISO8601FormatStyleWrites() throws {
    let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    for seconds in stride(from: 0.0, through: 4_000_000_000, by: 12_345_678.901) {
      let date = Date(timeIntervalSince1970: (seconds * 1_000).rounded(.down) / 1_000)
      let ours = try #require(ISO8601Timestamp.parse(ISO8601Timestamp.formatWithMilliseconds(date)))
      let theirs = try #require(ISO8601Timestamp.parse(date.formatted(style)))

      #expect(abs(ours.timeIntervalSince(theirs)) <= 0.0011, "\(date)")
      #expect(ISO8601Timestamp.formatWithMilliseconds(date).utf8.count == 24)
      #expect(
        ISO8601Timestamp.format(date)
          == Date(timeIntervalSince1970: seconds.rounded(.down)).formatted(.iso8601))
    }
  }

  @Test func parse_readsWhatISO8601FormatStyleWrote_toTheMillisecond() throws {
    let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    let date = Date(timeIntervalSince1970: 1_795_356_185.123)

    let written = date.formatted(style)
    let read = try #require(ISO8601Timestamp.parse(written))

    #expect(abs(read.timeIntervalSince(date)) < 0.001)
    #expect(ISO8601Timestamp.formatWithMilliseconds(read) == written)
    #expect(ISO8601Timestamp.parse("2026-11-22T14:03:05Z")?.timeIntervalSince1970 == 1_795_356_185)
  }

  @Test(arguments: [
    "", "2026-11-22", "2026-11-22T14:03:05", "2026-11-22T14:03:05+01:00", "2026-02-30T00:00:00Z",
    "2026-13-01T00:00:00Z", "2026-11-22T24:00:00Z", "2026-11-22 14:03:05Z",
    "2026-11-22T14:03:05.Z", "2026-11-22T14:03:05.1234567890Z", "2026-1a-22T14:03:05Z",
    "2026-00-22T14:03:05Z", "2026-11-00T14:03:05Z", "2026-11-22T14:60:05Z", "2026-11-22T14:03:60Z",
    "2026-11-22T14:03:05ZZ",
  ])
  func parse_refusesWhatIsNotAUTCTimestamp(text: String) {
    #expect(ISO8601Timestamp.parse(text) == nil)
  }

  @Test(arguments: [
    ("2026-11-22T14:03:05.5Z", 1_795_356_185.5),
    ("2026-11-22T14:03:05.250000000Z", 1_795_356_185.25),
  ])
  func parse_readsAFractionOfOneToNineDigits(text: String, seconds: Double) {
    #expect(ISO8601Timestamp.parse(text)?.timeIntervalSince1970 == seconds)
  }
}
