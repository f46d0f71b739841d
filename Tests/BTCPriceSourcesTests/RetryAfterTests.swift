import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Read Retry-After", .hangLimit(.seconds(30)))
struct RetryAfterTests {
  let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT

  @Test(arguments: [("120", Duration.seconds(120)), (" 0 ", .zero), ("7", .seconds(7))])
  func parse_readsSeconds(text: String, expected: Duration) {
    #expect(RetryAfter.parse(text, now: now) == expected)
  }

  @Test(arguments: [
    "Sun, 06 Nov 1994 08:51:37 GMT",  // IMF-fixdate
    "Sunday, 06-Nov-94 08:51:37 GMT",  // obsolete RFC 850
    "Sun Nov  6 08:51:37 1994",  // obsolete asctime
    "Sun Nov 06 08:51:37 1994",  // asctime's day in two digits
  ])
  func parse_readsEveryHTTPDateFormAsTimeFromNow(text: String) {
    #expect(RetryAfter.parse(text, now: now) == .seconds(120))
  }

  @Test func parse_takesADateInThePastAsNow() {
    #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:00:00 GMT", now: now) == .zero)
  }

  @Test func parse_takesADateUnderASecondPastAsNow() {
    let halfASecondLater = now.addingTimeInterval(0.5)
    #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT", now: halfASecondLater) == .zero)
  }

  @Test func parse_waitsForADateOneSecondAhead() {
    #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:49:38 GMT", now: now) == .seconds(1))
  }

  @Test func parse_capsAbsurdValuesAtAWeek() {
    #expect(RetryAfter.parse("99999999999999999999999", now: now) == RetryAfter.longest)
    #expect(RetryAfter.parse("Fri, 01 Jan 2100 00:00:00 GMT", now: now) == RetryAfter.longest)
  }

  @Test(arguments: [
    "Sun Nov 6 08:51:37 1994",  // asctime with a one-digit day and one space
    "sun, 06 nov 1994 08:51:37 GMT",  // names in another case
    "\tSun, 06 Nov 1994 08:51:37 GMT ",  // optional whitespace around the value
  ])
  func parse_toleratesHarmlessVariations(text: String) {
    #expect(RetryAfter.parse(text, now: now) == .seconds(120))
  }

  /// RFC 9110 §5.6.7: a two-digit year that would be more than 50 years in the future is in the
  /// past century.
  @Test func parse_readsTwoDigitYearsWithinFiftyYearsOfNow() {
    let in2026 = Date(timeIntervalSince1970: 1_795_356_185)  // 2026-11-22 14:03:05 UTC
    #expect(RetryAfter.parse("Monday, 23-Nov-26 14:03:05 GMT", now: in2026) == .seconds(86_400))
    #expect(RetryAfter.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: in2026) == .zero)
    // 2076 is exactly 50 years on, so still this century: beyond a week, capped.
    #expect(RetryAfter.parse("Sunday, 22-Nov-76 14:03:05 GMT", now: in2026) == RetryAfter.longest)
    #expect(RetryAfter.parse("Monday, 22-Nov-77 14:03:05 GMT", now: in2026) == .zero)
  }

  /// Past 2050 the fifty years reach into the next century: in 2060, `05` is 2105, not 2005.
  @Test func parse_readsATwoDigitYearOfTheNextCenturyAsAhead() {
    let in2060 = Date(timeIntervalSince1970: 2_853_273_600)  // 2060-06-01 00:00:00 UTC
    #expect(RetryAfter.parse("Monday, 01-Jun-05 00:00:00 GMT", now: in2060) == RetryAfter.longest)
    #expect(RetryAfter.parse("Monday, 01-Jun-59 00:00:00 GMT", now: in2060) == .zero)
  }

  /// The fifty years count from today's date in GMT, even seconds either side of New Year.
  @Test func parse_readsATwoDigitYearFromTodaysYear_atTheTurnOfTheYear() {
    let lastSecondsOf1999 = Date(timeIntervalSince1970: 946_684_790)  // 1999-12-31 23:59:50
    let firstSecondsOf2000 = Date(timeIntervalSince1970: 946_684_830)  // 2000-01-01 00:00:30
    let text = "Saturday, 01-Jan-50 00:00:00 GMT"
    #expect(RetryAfter.parse(text, now: lastSecondsOf1999) == .zero, "1950")
    #expect(RetryAfter.parse(text, now: firstSecondsOf2000) == RetryAfter.longest, "2050")
  }

  @Test func parse_takesTheLastHourAndMinuteOfTheDay() {
    #expect(RetryAfter.parse("Sun, 06 Nov 1994 23:00:00 GMT", now: now) == .seconds(51_023))
    #expect(RetryAfter.parse("Sun, 06 Nov 1994 23:59:59 GMT", now: now) == .seconds(54_622))
  }

  @Test(arguments: [
    "", "-5", "1.5", "soon", "Sun, 06 Nov 1994", "120s",
    "Sun, 31 Nov 1994 08:49:37 GMT",  // no 31 November
    "Sun, 29 Feb 1995 08:49:37 GMT",  // not a leap year
    "Sun, 06 Nov 1994 24:00:00 GMT",  // no hour 24
    "Sun, 06 Nov 1994 08:49:37 UTC",  // HTTP dates are in GMT
    "Xyz, 06 Nov 1994 08:49:37 GMT",  // no such day
    "Sun, 06 Nov 94 08:49:37 GMT",  // IMF-fixdate has four-digit years
    "Sun, 6 Nov 1994 08:49:37 GMT",  // and two-digit days
    "Sunday, 06-Nov-1994 08:49:37 GMT",  // RFC 850 has two-digit years
    "Sun Nov  6 08:49 1994",  // seconds missing
    "Sun, 06 Nov 1994 08:60:00 GMT",  // no minute 60
    "Sun, 06 Nov 1994 08:49:61 GMT",  // no second 61
    "Sun, 06 Nov 1994 008:49:37 GMT",
    "Sun, 06 Nov 1994 08:9:37 GMT",  // two-digit minutes
    "Sun, 06 Nov 1994 08:049:37 GMT",
    "Sun, 06 Nov 1994 08:49:7 GMT",  // and seconds
    "Sun, 06 Nov 1994 08:49:037 GMT",
    "Sun, 00 Nov 1994 08:49:37 GMT",  // no day 0
    "Sun, 06 Nov 1994 8:49:37 GMT",  // two-digit hours
    "Sun, 06-Nov-94 08:49:37 GMT",  // RFC 850 spells the day out
    "Sunday, 06-Nov-94 08:49:37 UTC",  // in GMT too
    "Sunday Nov  6 08:49:37 1994",  // asctime abbreviates it
    "Sun, 06 Nov 994 08:49:37 GMT",  // four-digit years, not three
    "Sun, 06 Nov 01994 08:49:37 GMT",  // nor five
    "Sun, 006 Nov 1994 08:49:37 GMT",  // two-digit days, not three
    "Sunday, 06-Nov-4 08:49:37 GMT",  // RFC 850's years have two digits, not one
    "Sunday, 06-Nov-094 08:49:37 GMT",  // nor three
    "Sunday, 6-Nov-94 08:49:37 GMT",  // and its days two
    "Sunday, 006-Nov-94 08:49:37 GMT",
    "Sun Nov  6 08:49:37 994",  // asctime's years have four digits
    "Sun Nov  6 08:49:37 01994",
    "Sun Nov 006 08:49:37 1994",  // and its days one or two
  ])
  func parse_rejectsAnythingElse(text: String) {
    #expect(RetryAfter.parse(text, now: now) == nil)
  }

  @Test func parse_capsSecondsBeyondAWeek() {
    #expect(RetryAfter.parse("604800", now: now) == .seconds(604_800))
    #expect(RetryAfter.parse("604801", now: now) == RetryAfter.longest)
    #expect(RetryAfter.parse("31536000", now: now) == RetryAfter.longest)
  }

  /// A leap second (:60) is a time an HTTP date may name.
  @Test func parse_takesALeapSecond() {
    #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:51:60 GMT", now: now) == .seconds(143))
  }
}
