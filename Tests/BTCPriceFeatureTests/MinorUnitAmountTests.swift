import BTCPriceTestSupport
import Foundation
import Testing

@testable import BTCPriceFeature

/// The line, the words for VoiceOver and the changes are written from whole minor units when
/// they fit 64 bits (docs/PERFORMANCE.md, "What we own in a tick"). The text is the same when
/// they do not (the formatters fall back to the digits of the rounded `Decimal`), so no test of
/// the text can tell that a price left the fast path: these check the amount itself.
@Suite("Hold a price in whole minor units", .hangLimit(.seconds(30)))
struct MinorUnitAmountTests {
  @Test(arguments: [
    ("68901.23", 2, false, 6_890_123 as UInt64), ("68901.235", 2, false, 6_890_124),
    ("-68901.235", 2, true, 6_890_124), ("12", 2, false, 1_200), ("1234.5", 0, false, 1_235),
    ("10512345", 0, false, 10_512_345), ("1.23456", 4, false, 12_346), ("0", 0, false, 0),
    // Rounded to nothing: no minus sign is left to print.
    ("-0.004", 2, false, 0),
  ])
  func aPriceInEachCurrencysDecimals_isHeldInMinorUnits(
    value: String, decimals: Int, negative: Bool, units: UInt64
  ) throws {
    let amount = try #require(MinorUnitAmount(Decimal(string: value)!, decimals: decimals))

    #expect(amount.units == units)
    #expect(amount.negative == negative)
    #expect(amount.decimals == decimals)
  }

  /// Zero to four decimals (yen to a tenth of a basis point); outside that, the formatters' own
  /// path.
  @Test(arguments: [-1, 5])
  func decimalsOutsideZeroToFour_areNotHeld(decimals: Int) {
    #expect(MinorUnitAmount(Decimal(string: "1.5")!, decimals: decimals) == nil)
  }

  /// Up to 2^64 - 1 minor units: 10^19 cents fit, 2 × 10^19 do not (the multiplication by ten
  /// that would overflow is refused, never wrapped).
  @Test func anAmountUpTo64BitsOfMinorUnits_isHeld_andOneOverIsNot() {
    #expect(
      MinorUnitAmount(Decimal(string: "100000000000000000")!, decimals: 2)?.units
        == 10_000_000_000_000_000_000)
    #expect(MinorUnitAmount(Decimal(string: "200000000000000000")!, decimals: 2) == nil)
  }
}
