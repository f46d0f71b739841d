import BTCPriceNetworking
import Foundation
import Testing

@Suite("Read Retry-After")
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
  ])
  func parse_readsEveryHTTPDateFormAsTimeFromNow(text: String) {
    #expect(RetryAfter.parse(text, now: now) == .seconds(120))
  }

  @Test func parse_takesADateInThePastAsNow() {
    #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:00:00 GMT", now: now) == .zero)
  }

  @Test func parse_capsAbsurdValuesAtAWeek() {
    #expect(RetryAfter.parse("99999999999999999999999", now: now) == RetryAfter.longest)
    #expect(RetryAfter.parse("Fri, 01 Jan 2100 00:00:00 GMT", now: now) == RetryAfter.longest)
  }

  @Test(arguments: ["", "-5", "1.5", "soon", "Sun, 06 Nov 1994", "120s"])
  func parse_rejectsAnythingElse(text: String) {
    #expect(RetryAfter.parse(text, now: now) == nil)
  }
}
