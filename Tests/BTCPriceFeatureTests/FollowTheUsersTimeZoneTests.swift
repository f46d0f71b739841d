import BTCPriceCore
import BTCPriceFeature
import BTCPriceRuntime
import BTCPriceTestSupport
import Foundation
import Testing

/// After travel the apps show times in the zone the user is in now, without a relaunch.
@Suite("Follow the user's time zone", .hangLimit(.seconds(30)))
struct FollowTheUsersTimeZoneTests {
  /// 2026-11-22 14:03:05 UTC
  let instant = Date(timeIntervalSince1970: 1_795_356_185)

  @Test func format_asksForTheZoneAtEveryCall() {
    let zone = Locked(TimeZone(identifier: "UTC")!)
    let sut = TimestampFormatter(precision: .minutes, timeZone: { zone.value })

    let before = sut.format(instant)
    zone.withValue { $0 = TimeZone(identifier: "Asia/Tokyo")! }
    let after = sut.format(instant)

    #expect(before == "Nov 22, 14:03")
    #expect(after == "Nov 22, 23:03")
  }

  @Test func format_withAFixedZone_keepsIt() {
    let sut = TimestampFormatter(precision: .seconds, timeZone: TimeZone(identifier: "Asia/Tokyo")!)

    #expect(sut.format(instant) == "Nov 22, 23:03:05")
  }

  @Test func autoupdatingCurrent_formatsLikeTheCurrentZone() {
    let sut = TimestampFormatter(precision: .seconds, timeZone: { .autoupdatingCurrent })

    #expect(
      sut.format(instant)
        == TimestampFormatter(precision: .seconds, timeZone: .current)
        .format(instant))
  }
}
