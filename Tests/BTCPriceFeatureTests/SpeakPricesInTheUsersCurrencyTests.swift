import BTCPriceCore
import BTCPriceFeature
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Speak prices in the user's currency", .hangLimit(.seconds(30)))
struct SpeakPricesInTheUsersCurrencyTests {
  @Test(arguments: [
    ("68901.23", Currency.usd, "68,901 dollars 23 cents"),
    ("63250.10", .eur, "63,250 euros 10 cents"),
    ("1.01", .eur, "1 euro 1 cent"),
    ("54000.01", .gbp, "54,000 pounds 1 penny"),
    ("54000.02", .gbp, "54,000 pounds 2 pence"),
    ("10512345", .jpy, "10,512,345 yen"),
    ("95000.50", .cad, "95,000 Canadian dollars 50 cents"),
    ("104000", .aud, "104,000 Australian dollars"),
    ("55000.05", .chf, "55,000 Swiss francs 5 centimes"),
  ])
  func text_namesTheCurrencysUnitsInWords(value: String, currency: Currency, expected: String) {
    #expect(SpokenPrice.text(Decimal(string: value)!, currency: currency) == expected)
  }

  /// Amounts past 64 bits of minor units, or with more digits than 64 bits hold, take the long
  /// way through the formatted text; they are said the same way.
  @Test(arguments: [
    ("123456789012345678901.25", Currency.usd, "123,456,789,012,345,678,901 dollars 25 cents"),
    ("-123456789012345678901.01", .eur, "minus 123,456,789,012,345,678,901 euros 1 cent"),
    ("123456789012345678901", .jpy, "123,456,789,012,345,678,901 yen"),
    ("0.1234567890123456789012345", .usd, "0 dollars 12 cents"),
  ])
  func text_ofAnAmountPastSixtyFourBits_isSaidTheSameWay(
    value: String, currency: Currency, expected: String
  ) {
    #expect(SpokenPrice.text(Decimal(string: value)!, currency: currency) == expected)
  }

  @Test(arguments: [
    (["1", "2", "3"], [0.0, 0.5, 1.0]),
    (["68900", "68900"], [0.5, 0.5]),
    (["5"], []),
    // A move of cents is a move: the line spans whatever separates the low and the high.
    (["68901.23", "68901.50"], [0.0, 1.0]),
  ])
  func sparkline_placesEachValueBetweenTheLowestAndTheHighest(
    values: [String], expected: [Double]
  ) {
    #expect(SparklinePoints.heights(values.map { Decimal(string: $0)! }) == expected)
  }
}
