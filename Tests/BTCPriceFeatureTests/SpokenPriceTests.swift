import BTCPriceFeature
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Speak prices to VoiceOver", .hangLimit(.seconds(30)))
struct SpokenPriceTests {
  @Test(arguments: [
    ("68901.23", "68,901 dollars 23 cents"),
    ("114721.34000000", "114,721 dollars 34 cents"),
    ("1.01", "1 dollar 1 cent"),
    ("100", "100 dollars"),
    ("0.05", "0 dollars 5 cents"),
    ("999.995", "1,000 dollars"),
  ])
  func text_saysDollarsAndCentsInWords(value: String, expected: String) {
    #expect(SpokenPrice.text(Decimal(string: value)!) == expected)
  }
}
