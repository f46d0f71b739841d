import BTCPriceFeature
import BTCPriceTerminal
import BTCPriceTestSupport
import Foundation
import Testing

/// `--verbose`'s line: local date and time to the millisecond with the zone's offset, the level,
/// the message.
@Suite("Write --verbose lines", .hangLimit(.seconds(30)))
struct VerboseLineTests {
  /// 2026-11-22 14:03:05.042 UTC
  let date = Date(timeIntervalSince1970: 1_795_356_185.042)

  @Test(arguments: [
    ("UTC", "2026-11-22 14:03:05.042 +0000"),
    ("Europe/Berlin", "2026-11-22 15:03:05.042 +0100"),
    ("America/St_Johns", "2026-11-22 10:33:05.042 -0330"),
    ("Pacific/Kiritimati", "2026-11-23 04:03:05.042 +1400"),
  ])
  func format_writesTheLocalTimeToTheMillisecondAndTheLevel(zone: String, time: String) throws {
    let timestamps = TimestampFormatter(
      precision: .seconds, timeZone: try #require(TimeZone(identifier: zone)))

    #expect(
      VerboseLine.format(
        .info, "binance delivered 68880.55 in 3 ms", at: date, timestamps: timestamps)
        == "\(time) btc-price info: binance delivered 68880.55 in 3 ms\n")
  }

  /// Fractions of a second in 1/1024 s (which a binary number holds exactly) and their
  /// milliseconds: either side of 10 and of 100.
  static let fractions: [(inKibi: Int, written: String)] = [
    (0, "000"), (8, "007"), (10, "009"), (11, "010"), (102, "099"), (103, "100"), (512, "500"),
  ]

  /// The milliseconds always in three digits.
  @Test(arguments: fractions)
  func format_writesTheMillisecondsInThreeDigits(inKibi: Int, written: String) {
    let at = Date(timeIntervalSince1970: 1_795_356_185 + Double(inKibi) / 1024)

    #expect(
      VerboseLine.format(.info, "x", at: at, timestamps: .utc(precision: .seconds))
        == "2026-11-22 14:03:05.\(written) +0000 btc-price info: x\n")
  }

  /// The hour at either end of an hour and of the day (UTC).
  @Test(arguments: [
    (1_795_305_599, "2026-11-21 23:59:59.000"), (1_795_305_600, "2026-11-22 00:00:00.000"),
    (1_795_309_199, "2026-11-22 00:59:59.000"), (1_795_309_200, "2026-11-22 01:00:00.000"),
  ])
  func format_writesTheHourAtItsEdges(seconds: Int, written: String) {
    let at = Date(timeIntervalSince1970: TimeInterval(seconds))

    #expect(
      VerboseLine.format(.info, "x", at: at, timestamps: .utc(precision: .seconds))
        == "\(written) +0000 btc-price info: x\n")
  }

  @Test func format_namesEachLevel() {
    let utc = TimestampFormatter.utc(precision: .seconds)

    #expect(VerboseLine.format(.debug, "x", at: date, timestamps: utc).contains(" debug: x"))
    #expect(VerboseLine.format(.notice, "x", at: date, timestamps: utc).contains(" notice: x"))
  }
}
