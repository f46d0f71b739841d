import BTCPriceCore
import BTCPriceFeature
import BTCPriceTestSupport
import Foundation
import Testing

/// The `--json` record's timestamp is written without `Date.ISO8601FormatStyle`; the style is the
/// oracle, over five centuries, fractions of a second and instants before 1970.
@Suite("Write the record's timestamp", .hangLimit(.seconds(30)))
struct RecordTimestampTests {
  let presenter = PricePresenter(
    timestamps: TimestampFormatter(precision: .seconds, timeZone: TimeZone(identifier: "UTC")!))

  @Test func recordTimestamp_isISO8601InUTCToTheSecond_likeFoundationsFormatStyle() {
    var random = SplitMix(seed: 8601)
    let style = Date.ISO8601FormatStyle()
    // 1700 to 2200, in tenths of a millisecond.
    let range = UInt64(15_778_800_000_000)
    for _ in 0..<5_000 {
      let instant = Date(
        timeIntervalSince1970: Double(random.next() % (2 * range)) / 10_000 - 8_520_000_000)
      let quote = PriceQuote(value: 1, timestamp: instant, source: .binance)

      #expect(presenter.present(.fresh(quote)).record.timestamp == instant.formatted(style))
    }
  }

  @Test(arguments: [
    (0.0, "1970-01-01T00:00:00Z"), (-0.5, "1969-12-31T23:59:59Z"),
    (1_795_356_185.999, "2026-11-22T14:03:05Z"), (951_782_400, "2000-02-29T00:00:00Z"),
  ])
  func recordTimestamp_roundsDownToTheSecond(seconds: Double, expected: String) {
    let quote = PriceQuote(
      value: 1, timestamp: Date(timeIntervalSince1970: seconds), source: .binance)

    #expect(presenter.present(.fresh(quote)).record.timestamp == expected)
  }
}
