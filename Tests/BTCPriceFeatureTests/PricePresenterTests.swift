import BTCPriceCore
import BTCPriceFeature
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Present price updates", .hangLimit(.seconds(30)))
struct PricePresenterTests {
  /// 2026-11-22 14:03:05 UTC
  let receivedAt = Date(timeIntervalSince1970: 1_795_356_185)

  @Test func present_freshQuoteShowsPriceAndTimeWithoutBanner() {
    let state = makeSUT().present(.fresh(quote("68901.23")))

    #expect(state.priceText == "$68,901.23")
    #expect(state.timestampText == "Nov 22, 14:03:05")
    #expect(state.bannerText == nil)
    #expect(state.isStale == false)
    #expect(state.sourceName == "Binance")
    #expect(state.failureReason == nil)
  }

  @Test func present_failureWithCachedValueShowsItWithBannerAndItsOwnTime() {
    let failure = PriceFetchFailure(failures: [
      .init(source: .binance, error: .timedOut(after: .milliseconds(800)))
    ])

    let state = makeSUT().present(.stale(lastKnown: quote("68901.23"), failure: failure))

    #expect(state.priceText == "$68,901.23")
    #expect(state.timestampText == "Nov 22, 14:03:05")
    #expect(
      state.bannerText
        == "Failed to update value. Displaying last updated value from Nov 22, 14:03:05")
    #expect(state.isStale)
    #expect(state.failureReason == "binance: timed out after 800 ms")
  }

  @Test func present_failureWithoutAnyValueShowsPlaceholders() {
    let state = makeSUT().present(.stale(lastKnown: nil, failure: PriceFetchFailure(failures: [])))

    #expect(state.priceText == "-")
    #expect(state.timestampText == "-")
    #expect(state.bannerText == "Failed to update value. Displaying last updated value from -")
    #expect(state.sourceName == nil)
    #expect(state.isStale)
  }

  @Test func present_recoveryAfterFailureHidesTheBanner() {
    let sut = makeSUT()
    let failed = sut.present(
      .stale(lastKnown: quote("1.00"), failure: PriceFetchFailure(failures: [])))
    let recovered = sut.present(.fresh(quote("2.00")))

    #expect(failed.bannerText != nil)
    #expect(recovered.bannerText == nil)
    #expect(recovered.priceText == "$2.00")
  }

  @Test func presentRestored_showsCachedValueWithoutBanner() {
    #expect(makeSUT().presentRestored(quote("68901.23")).bannerText == nil)
    #expect(makeSUT().presentRestored(nil).priceText == "-")
  }

  @Test func present_usesMinutesForTheApps() {
    let sut = PricePresenter(
      timestamps: TimestampFormatter(precision: .minutes, timeZone: TimeZone(identifier: "UTC")!))

    #expect(sut.present(.fresh(quote("1"))).timestampText == "Nov 22, 14:03")
  }

  @Test func present_usesTheGivenTimeZone() {
    let tokyo = TimeZone(identifier: "Asia/Tokyo")!
    let sut = PricePresenter(timestamps: TimestampFormatter(precision: .seconds, timeZone: tokyo))

    #expect(sut.present(.fresh(quote("1"))).timestampText == "Nov 22, 23:03:05")
  }

  @Test(arguments: [
    ("100", "112.34", "▲ +$12.34 (+12.34%)"),
    ("68901.23", "68896.23", "▼ -$5.00 (-0.01%)"),
    ("5", "5.00", "• unchanged"),
    ("68000", "1068000", "▲ +$1,000,000.00 (+1,470.59%)"),
  ])
  func presentTrend_wordsTheChangeSinceTheLastTick(from: String, to: String, expected: String) {
    var history = PriceHistory()
    history.record(makeSUT().present(.fresh(quote(from))))
    history.record(makeSUT().present(.fresh(quote(to))))

    #expect(makeSUT().presentTrend(history).sinceLastTick?.text == expected)
  }

  @Test func presentTrend_measuresNoChangeFromAValueOfAnEarlierRun() {
    let sut = makeSUT()
    var history = PriceHistory()
    let failure = PriceFetchFailure(failures: [])
    history.record(sut.present(.stale(lastKnown: quote("60000"), failure: failure)))
    history.record(sut.present(.fresh(quote("68901.23"))))

    let trend = sut.presentTrend(history)

    #expect(trend.sinceLastTick == nil)
    #expect(trend.sinceStart?.text == "• unchanged")
  }

  private func makeSUT() -> PricePresenter {
    PricePresenter(
      timestamps: TimestampFormatter(precision: .seconds, timeZone: TimeZone(identifier: "UTC")!))
  }

}

@Suite("Format prices and timestamps", .hangLimit(.seconds(30)))
struct FormattingTests {
  @Test(arguments: [
    ("68901.23", "$68,901.23"),
    ("114721.34000000", "$114,721.34"),
    ("1234567.891", "$1,234,567.89"),
    ("0.1", "$0.10"),
    ("0", "$0.00"),
    ("999.995", "$1,000.00"),
    ("0.005", "$0.01"),
    ("0.004", "$0.00"),
    ("100", "$100.00"),
    ("1000", "$1,000.00"),
    ("123456789012.5", "$123,456,789,012.50"),
    ("-68901.23", "-$68,901.23"),
  ])
  func priceFormatter_formatsDollarsWithGroupingAndTwoDecimalsRoundedHalfUp(
    value: String, expected: String
  ) {
    #expect(PriceFormatter.format(Decimal(string: value)!) == expected)
  }

  @Test func timestampFormatter_usesEnglishMonthsAnd24HourClock() {
    let utc = TimeZone(identifier: "UTC")!
    // 2026-01-05 09:07:03 UTC and 2026-12-31 23:59:59 UTC
    let morning = Date(timeIntervalSince1970: 1_767_604_023)
    let lastSecond = Date(timeIntervalSince1970: 1_798_761_599)

    #expect(
      TimestampFormatter(precision: .seconds, timeZone: utc).format(morning) == "Jan 5, 09:07:03")
    #expect(
      TimestampFormatter(precision: .minutes, timeZone: utc).format(lastSecond) == "Dec 31, 23:59")
  }

  /// `serve`'s page writes UTC times; the command-line tool has no time zone data to ask for
  /// "UTC" (a crash there once), so this formatter needs none.
  @Test func utcTimestampFormatter_needsNoTimeZoneAndMatchesFoundationsUTC() {
    let utc = TimeZone(identifier: "UTC")!
    let instants = [1_767_604_023.0, 1_798_761_599, -86_400.5, 951_782_400]  // 2000-02-29

    for seconds in instants {
      let date = Date(timeIntervalSince1970: seconds)
      #expect(
        TimestampFormatter.utc(precision: .seconds).format(date)
          == TimestampFormatter(precision: .seconds, timeZone: utc).format(date), "\(seconds)")
    }
    #expect(
      TimestampFormatter.utc(precision: .seconds).format(Date(timeIntervalSince1970: 1_767_604_023))
        == "Jan 5, 09:07:03")
  }

  /// The formatter does its own calendar arithmetic; Foundation's formatter is the oracle, over
  /// two centuries of instants (leap days, pre-1970, fractions of a second) and zones with DST,
  /// half-hour and 45-minute offsets.
  @Test(arguments: [
    "UTC", "America/New_York", "Europe/Berlin", "Asia/Kolkata", "Australia/Lord_Howe",
    "Pacific/Chatham", "America/St_Johns",
  ])
  func timestampFormatter_agreesWithFoundationsFormatter(zone: String) throws {
    let timeZone = try #require(TimeZone(identifier: zone))
    let oracle = DateFormatter()
    oracle.locale = Locale(identifier: "en_US_POSIX")
    oracle.timeZone = timeZone
    oracle.dateFormat = "MMM d, HH:mm:ss"
    let sut = TimestampFormatter(precision: .seconds, timeZone: timeZone)
    // 1900-01-01 to 2100-01-01, in steps that land on every hour, minute and second over time,
    // plus the instants either side of this zone's DST changes in 2026.
    var instants = stride(from: -2_208_988_800.0, to: 4_102_444_800, by: 1_234_567.891).map {
      Date(timeIntervalSince1970: $0)
    }
    var transition = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
    while let next = timeZone.nextDaylightSavingTimeTransition(after: transition),
      next < Date(timeIntervalSince1970: 1_798_761_600)
    {
      instants += [next.addingTimeInterval(-0.5), next, next.addingTimeInterval(1)]
      transition = next
    }
    instants.append(Date(timeIntervalSince1970: 1_772_323_199.999))  // 2026-02-28 23:59:59.999

    for instant in instants {
      #expect(sut.format(instant) == oracle.string(from: instant), "\(instant)")
    }
  }
}
