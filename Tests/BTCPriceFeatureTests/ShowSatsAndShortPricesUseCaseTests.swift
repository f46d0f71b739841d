import BTCPriceCore
import BTCPriceFeature
import BTCPriceTestSupport
import Foundation
import Testing

/// What one unit of the currency buys in satoshis, and the price in fewer characters for bars
/// where width is scarce: every digit worked out exactly, every tie rounded half up.
@Suite("Show sats and short prices", .hangLimit(.seconds(30)))
struct ShowSatsAndShortPricesUseCaseTests {
  let presenter = PricePresenter(timestamps: .utc(precision: .seconds))

  // MARK: Sats

  /// 100,000,000 ÷ the price, half up: 1451.35… is 1451; 1562.5 (at 64,000) is 1563.
  @Test(arguments: [
    ("68901.23", 1451), ("68901.23000000", 1451), ("64000", 1563), ("80000", 1250),
    ("64000.01", 1562), ("160000", 625), ("10300000", 10), ("1", 100_000_000),
    ("0.5", 200_000_000), ("200000001", 0), ("133333333.34", 1),
    ("68901.2345678901234567890123", 1451),
  ])
  func satsPerUnit_isAHundredMillionOverThePrice_roundedHalfUp(price: String, sats: UInt64)
    throws
  {
    #expect(Satoshis.perUnit(at: try #require(Decimal(string: price))) == sats)
  }

  @Test func satsPerUnit_ofNoPositivePrice_isNone() {
    #expect(Satoshis.perUnit(at: 0) == nil)
    #expect(Satoshis.perUnit(at: -1) == nil)
  }

  @Test func theRecord_carriesTheSats_ofTheShownPrice_andNoneWithoutOne() {
    let fresh = presenter.present(.fresh(quote("68901.23")))
    let stale = presenter.present(
      .stale(lastKnown: quote("68901.23"), failure: PriceFetchFailure(failures: [])))
    let unknown = presenter.present(
      .stale(lastKnown: nil, failure: PriceFetchFailure(failures: [])))

    #expect(fresh.record.satsPerUnit == "1451")
    #expect(stale.record.satsPerUnit == "1451")
    #expect(unknown.record.satsPerUnit == nil)
    #expect(fresh.satsText == "$1 = 1,451 sats")
    #expect(unknown.satsText == nil)
  }

  @Test func theJSONLine_carriesSatsPerUnit_asAString_andLeavesItOutWithoutAPrice() {
    let fresh = JSONLineRenderer.render(presenter.present(.fresh(quote("68901.23"))))
    let unknown = JSONLineRenderer.render(
      presenter.present(.stale(lastKnown: nil, failure: PriceFetchFailure(failures: []))))

    #expect(fresh.hasSuffix(#""stale":false,"satsPerUnit":"1451"}"#), "\(fresh)")
    #expect(!unknown.contains("satsPerUnit"))
  }

  @Test func thePage_showsTheSats_andNothingWithoutAPrice() {
    let page = PricePagePresenter()
    let fresh = presenter.present(.fresh(quote("68901.23")))
    let unknown = presenter.present(
      .stale(lastKnown: nil, failure: PriceFetchFailure(failures: [])))

    #expect(page.present(fresh, previousValue: nil, recentValues: []).satsText == "$1 = 1,451 sats")
    #expect(page.present(unknown, previousValue: nil, recentValues: []).satsText == "")
  }

  // MARK: Short prices

  @Test(arguments: [
    ("68901.23", "$68.9K"), ("68950", "$69.0K"), ("999999.99", "$1.00M"), ("999.99", "$1.00K"),
    ("100000", "$100K"), ("1240000", "$1.24M"), ("1235000", "$1.24M"), ("1234999", "$1.23M"),
    ("689", "$689"), ("12.345", "$12.3"), ("1.2345", "$1.23"), ("2500000000", "$2.50B"),
    ("0.5", "$0.50"),
  ])
  func shortPrice_hasThreeSignificantDigitsAndALetter(price: String, text: String) throws {
    #expect(
      PriceFormatter.formatShort(try #require(Decimal(string: price)), currency: .usd) == text)
  }

  @Test func shortPrice_writesEachCurrencysSymbol() throws {
    #expect(PriceFormatter.formatShort(1_240_000, currency: .eur) == "€1.24M")
    #expect(PriceFormatter.formatShort(10_300_000, currency: .jpy) == "¥10.3M")
  }

  @Test(arguments: [
    ("68901.23", Currency.usd, "$68,901"), ("68901.5", .usd, "$68,902"),
    ("68900.49", .eur, "€68,900"),
    ("10512345", .jpy, "¥10,512,345"),
  ])
  func wholePrice_isRoundedHalfUpToAWholeUnit(price: String, currency: Currency, text: String)
    throws
  {
    #expect(
      PriceFormatter.formatWhole(try #require(Decimal(string: price)), currency: currency) == text)
  }
}
