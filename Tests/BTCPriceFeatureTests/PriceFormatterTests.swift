import BTCPriceCore
import BTCPriceFeature
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Format money in any currency", .hangLimit(.seconds(30)))
struct FormatMoneyUseCaseTests {
  @Test(
    arguments: [
      ("68901.23", Currency.eur, "€68,901.23"),
      ("54210.1", .gbp, "£54,210.10"),
      ("10512345", .jpy, "¥10,512,345"),
      ("10512344.5", .jpy, "¥10,512,345"),
      ("5333330.8622", .jpy, "¥5,333,331"),
      ("10512345.49", .jpy, "¥10,512,345"),
      ("93120.55", .cad, "CA$93,120.55"),
      ("104555.12", .aud, "A$104,555.12"),
      ("50110", .chf, "CHF 50,110.00"),
      ("0.005", .eur, "€0.01"),
      ("0.004", .eur, "€0.00"),
      ("999.995", .gbp, "£1,000.00"),
      ("0.4", .jpy, "¥0"),
      ("-12.345", .eur, "-€12.35"),
      ("-0.001", .eur, "€0.00"),
      ("-1200", .jpy, "-¥1,200"),
      ("68901.23", .usd, "$68,901.23"),
      // Over 64 bits of minor units: the digits of the rounded value, grouped and padded.
      ("123456789012345678.9", .usd, "$123,456,789,012,345,678.90"),
      ("100000000000000000000.005", .eur, "€100,000,000,000,000,000,000.01"),
      ("-98765432109876543210.4", .jpy, "-¥98,765,432,109,876,543,210"),
      ("200000000000000000000", .chf, "CHF 200,000,000,000,000,000,000.00"),
      // More significant digits than 64 bits hold take that path too, however small.
      ("0.1234567890123456789012345", .usd, "$0.12"),
      ("-0.1234567890123456789012345", .usd, "-$0.12"),
      ("0.001234567890123456789012345", .usd, "$0.00"),
    ])
  func format_usesTheCurrencysSymbolAndMinorUnits(
    value: String, currency: Currency, expected: String
  ) {
    #expect(PriceFormatter.format(Decimal(string: value)!, currency: currency) == expected)
  }

  @Test(arguments: ["68901.23", "0.005", "-12.345", "1234567.891", "0", "7"])
  func format_inUSDIsTheFormatOfBefore(value: String) {
    let amount = Decimal(string: value)!
    #expect(PriceFormatter.format(amount, currency: .usd) == PriceFormatter.format(amount))
  }

  @Test(
    arguments: [
      ("12.34", Currency.eur, "+€12.34"),
      ("-12.34", .eur, "-€12.34"),
      ("0", .eur, "€0.00"),
      ("0.001", .usd, "+$0.00"),
      ("-1200.4", .jpy, "-¥1,200"),
      ("1234.5", .chf, "+CHF 1,234.50"),
      ("-0.5", .usd, "-$0.50"),
      ("0.5", .usd, "+$0.50"),
    ])
  func formatChange_carriesTheSignOfTheDirection(
    value: String, currency: Currency, expected: String
  ) {
    #expect(PriceFormatter.formatChange(Decimal(string: value)!, currency: currency) == expected)
  }

  /// A plain number keeps its decimals past 64 bits too (the widget's "1.2M" asks for one).
  @Test func number_overSixtyFourBits_keepsItsDecimals() {
    #expect(
      PriceFormatter.number(Decimal(string: "100000000000000000000.25")!, decimals: 1)
        == "100,000,000,000,000,000,000.3")
  }
}
