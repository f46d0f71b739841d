import BTCPriceTestSupport
import Foundation
import Testing

@testable import BTCPriceFeature

/// `roundedHalfUp(scale:)` and `plainText` stand in for `NSDecimalRound(…, .plain)` and
/// `description`, which the command-line tool cannot use or finds too slow; Foundation, linked
/// into the tests, is the oracle.
@Suite("Round decimals and write their digits", .hangLimit(.seconds(30)))
struct DecimalRoundingTests {
  /// The fast path reads `Decimal`'s private storage, recognised against values built through the
  /// public API. If a Foundation update changes that layout, the results stay right (the portable
  /// path takes over) but every price costs the slow `description` again: fail loudly instead of
  /// slowing down in silence (docs/PERFORMANCE.md, "What we own in a tick").
  @Test func decimalsStorageLayout_isStillRecognised_soThePresenterStaysOnItsFastPath() {
    #expect(DecimalParts.layoutIsKnown, "Decimal's storage layout changed; see the comment above")
    #expect(DecimalParts(Decimal(string: "68901.23")!)?.coefficient == 6_890_123)
  }

  @Test func plainText_isDescription_forValuesOfEveryShape() {
    var random = SplitMix(seed: 1)
    for value in Self.values(&random, count: 5_000) {
      #expect(value.plainText == value.description, "\(value)")
    }
  }

  /// Zero and NaN have no mantissa words; NaN is the "negative zero" of the storage. Neither is
  /// a price, but a value that reaches a formatter must keep Foundation's text: never `-0`.
  @Test func plainText_andRounding_ofZeroAndNaN_areFoundations() {
    let zeros = [Decimal(0), Decimal(sign: .plus, exponent: 5, significand: 0), -Decimal(0)]
    for zero in zeros {
      #expect(zero.plainText == zero.description, "\(zero)")
      #expect(zero.roundedHalfUp(scale: 2) == 0)
    }
    #expect(Decimal.nan.plainText == Decimal.nan.description)
    #expect(Decimal.nan.roundedHalfUp(scale: 2).isNaN)
  }

  /// A coefficient of 65 to 80 bits (five 16-bit words) does not fit the fast path: it must be
  /// written by Foundation's, whole, not cut to its low 64 bits (2^64 + 5 read as 5).
  @Test func plainText_andRounding_justOver64Bits_keepEveryDigit() {
    let values = [
      Decimal(string: "18446744073709551621")!, Decimal(string: "-18446744073709551616.5")!,
      Decimal(string: "36893488147419103231")!, Decimal(string: "18446744073709551615")!,
    ]
    for value in values {
      #expect(value.plainText == value.description, "\(value)")
      var copy = value
      var rounded = Decimal()
      NSDecimalRound(&rounded, &copy, 0, .plain)
      #expect(value.roundedHalfUp(scale: 0) == rounded, "\(value)")
    }
  }

  @Test(arguments: 0...4)
  func roundedHalfUp_isNSDecimalRoundPlain(scale: Int) {
    var random = SplitMix(seed: UInt64(10 + scale))
    for value in Self.values(&random, count: 2_000) {
      var input = value
      var expected = Decimal()
      NSDecimalRound(&expected, &input, scale, .plain)
      #expect(value.roundedHalfUp(scale: scale) == expected, "\(value) to \(scale) places")
    }
  }

  @Test(arguments: [
    ("0.005", 2, "0.01"), ("-0.005", 2, "-0.01"), ("0.004", 2, "0"), ("999.995", 2, "1000"),
    ("68901.23", 2, "68901.23"), ("2.5", 0, "3"), ("-2.5", 0, "-3"), ("12", 2, "12"),
    // Beyond 64 bits: the path through `description`.
    ("1234567890123456789012345.675", 2, "1234567890123456789012345.68"),
    ("-9999999999999999999999.995", 2, "-10000000000000000000000"),
    // The carry stops at the first digit: nothing is put in front of it.
    ("1999999999999999999999999.995", 2, "2000000000000000000000000"),
  ])
  func roundedHalfUp_roundsTiesAwayFromZero(value: String, scale: Int, expected: String) {
    #expect(Decimal(string: value)!.roundedHalfUp(scale: scale) == Decimal(string: expected)!)
  }

  /// A negative amount that rounds to zero keeps no sign: a `Decimal` made with a minus sign and
  /// a zero significand is NaN in the storage of Apple's Foundation before swift-foundation
  /// (swift-foundation makes it zero), so the parts must not carry one.
  /// Every percent in a JSON object has two decimals, as USAGE.md promises and `{change_pct}`
  /// prints: `1.10`, not `1.1`; `0.00`, not `0`.
  @Test(arguments: [
    ("1.1", "1.10"), ("0", "0.00"), ("-0.18", "-0.18"), ("1.333", "1.33"), ("1.335", "1.34"),
    ("-0.004", "0.00"), ("-0.005", "-0.01"), ("12", "12.00"), ("0.5", "0.50"),
    ("100.999", "101.00"),
  ])
  func fixedText_writesExactlyTwoDecimals(value: String, text: String) throws {
    #expect(try #require(Decimal(string: value)).fixedText(fractionDigits: 2) == text)
  }

  @Test func fixedText_withNoDecimals_isTheRoundedWholeNumber() throws {
    #expect(try #require(Decimal(string: "68901.5")).fixedText(fractionDigits: 0) == "68902")
  }

  @Test func aNegativeAmountRoundedToZero_hasNoSign() throws {
    let parts = try #require(DecimalParts(Decimal(string: "-0.004")!))

    #expect(
      parts.roundedHalfUp(scale: 2) == DecimalParts(negative: false, coefficient: 0, exponent: -2))
  }

  @Test func quotients_withThirtyEightDigits_roundLikeFoundation() {
    var ratio = Decimal(12) / Decimal(7) * 100
    var expected = Decimal()
    NSDecimalRound(&expected, &ratio, 2, .plain)
    #expect(ratio.roundedHalfUp(scale: 2) == expected)
    #expect(ratio.plainText == ratio.description)
  }

  @Test func priceFormatter_andSpokenPrice_writeTheDigitsOfFoundationsRounding() {
    var random = SplitMix(seed: 99)
    for value in Self.values(&random, count: 5_000) {
      var input = value
      var rounded = Decimal()
      NSDecimalRound(&rounded, &input, 2, .plain)
      let negative = rounded < 0
      let parts = "\(negative ? -rounded : rounded)".split(separator: ".")
      let fraction = parts.count > 1 ? String(parts[1]) : ""
      var dollars = ""
      for (offset, digit) in parts[0].enumerated() {
        if offset > 0, (parts[0].count - offset) % 3 == 0 { dollars.append(",") }
        dollars.append(digit)
      }
      let cents = fraction.padding(toLength: 2, withPad: "0", startingAt: 0)

      #expect(PriceFormatter.format(value) == (negative ? "-$" : "$") + dollars + "." + cents)
      let centsWords = Int(cents)! == 0 ? "" : " \(Int(cents)!) cent\(Int(cents)! == 1 ? "" : "s")"
      let words = "\(dollars) dollar\(dollars == "1" ? "" : "s")" + centsWords
      #expect(SpokenPrice.text(value) == (negative ? "minus " : "") + words, "\(value)")
    }
  }

  /// Prices as they arrive (up to 8 decimals), whole numbers, tiny and huge exponents, and
  /// products and quotients whose digits fill the whole 38-digit mantissa.
  private static func values(_ random: inout SplitMix, count: Int) -> [Decimal] {
    (0..<count).map { index in
      let sign: FloatingPointSign = random.next() % 2 == 0 ? .plus : .minus
      switch index % 4 {
      case 0:
        let cents = random.next() % 100_000_000_000
        return Decimal(sign: sign, exponent: -Int(random.next() % 9), significand: Decimal(cents))
      case 1:
        let exponent = Int(random.next() % 40) - 25
        return Decimal(sign: sign, exponent: exponent, significand: Decimal(random.next()))
      case 2:
        return Decimal(sign: sign, exponent: 0, significand: Decimal(random.next() % 1_000))
      default:
        let numerator = Decimal(random.next() % 1_000_000_000) + 1
        let denominator = Decimal(random.next() % 997) + 1
        let quotient = numerator / denominator
        return sign == .minus ? -quotient : quotient
      }
    }
  }
}
