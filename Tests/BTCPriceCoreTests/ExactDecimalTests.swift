import BTCPriceCore
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Exact decimals from payload text", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct ExactDecimalTests {
  @Test(arguments: [
    ("68901.23", "68901.23"), ("114721.34000000", "114721.34"), ("0.1", "0.1"), ("1e3", "1000"),
    ("-2.5", "-2.5"), ("1234567.891", "1234567.891"), ("0.00000001", "0.00000001"),
    ("1E+2", "100"), ("2.5e-3", "0.0025"), ("000120.0", "120"), ("0.0", "0"),
    // Zero has no sign and no scale, however it is written.
    ("-0", "0"), ("-0.00", "0"), ("0e5", "0"),
    ("1.5e10", "15000000000"), ("4.2e-10", "0.00000000042"),
    ("12345678901234567890.123456789012345678", "12345678901234567890.123456789012345678"),
    // 38 significant digits and two zeros: the zeros are the exponent's, not digits to hold.
    ("1234567890123456789012345678901234567800", "1234567890123456789012345678901234567800"),
  ])
  func parse_deliversTheExactValue(text: String, expected: String) throws {
    let value = try #require(ExactDecimal.parse(text))

    #expect("\(value)" == expected)
  }

  @Test(arguments: [
    "", "abc", "12abc", " 12", "12 ", "1,5", "0x10", "1e400", "1e", "NaN", "inf", "+1", "1.2.3",
    "1.", ".5", "-", "1e+", "١٢٣", "123456789012345678901234567890123456789",
  ])
  func parse_rejectsAnythingButANumber(text: String) {
    #expect(ExactDecimal.parse(text) == nil)
  }

  /// At most 40 characters, however harmless the rest (here leading zeros): a payload cannot
  /// make the parser walk an endless number.
  @Test func parse_takesAtMost40Characters() {
    #expect(
      ExactDecimal.parse(String(repeating: "0", count: 37) + "1.5") == Decimal(string: "1.5"))
    #expect(ExactDecimal.parse(String(repeating: "0", count: 38) + "1.5") == nil)
  }

  /// A `Decimal`'s exponent is an `Int8`: 1e-128 and 1e127 are held exactly, and a number one
  /// step smaller or larger in scale is refused, not wrapped into another value. (An exponent
  /// has at most two digits: the fraction's digits and the trimmed zeros take the scale there.)
  @Test func parse_takesScalesFrom1eMinus128To1e127_andRefusesOneStepBeyond() {
    let zeros = { (count: Int) in String(repeating: "0", count: count) }
    #expect(
      ExactDecimal.parse("0." + zeros(28) + "1e-99")
        == Decimal(sign: .plus, exponent: -128, significand: 1))
    #expect(ExactDecimal.parse("0." + zeros(29) + "1e-99") == nil)
    #expect(
      ExactDecimal.parse("1" + zeros(28) + "e99")
        == Decimal(sign: .plus, exponent: 127, significand: 1))
    #expect(ExactDecimal.parse("1" + zeros(29) + "e99") == nil)
  }

  /// An exponent has one or two digits: a longer one is refused, even 1e100 (which a `Decimal`
  /// could hold), so no exponent text is long enough to overflow while it is read.
  @Test func parse_takesAnExponentOfAtMostTwoDigits() {
    #expect(ExactDecimal.parse("1e99") == Decimal(sign: .plus, exponent: 99, significand: 1))
    #expect(ExactDecimal.parse("1e100") == nil)
  }

  @Test func plain_acceptsWhatDecimalWritesAndNoExponent() {
    #expect(ExactDecimal.parse("68901.23", grammar: .plain) == Decimal(string: "68901.23"))
    #expect(ExactDecimal.parse("-0.5", grammar: .plain) == Decimal(string: "-0.5"))
    for text in ["1e5", "1E+2", "2.5e-3", "1.2.3", ""] {
      #expect(ExactDecimal.parse(text, grammar: .plain) == nil, "\(text)")
    }
  }
}
