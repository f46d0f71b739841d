#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Turns the literal text of a number into a `Decimal`, exactly, or refuses: the one parser every
/// price goes through, from a source's payload or from the cache.
///
/// `Decimal(string:)` alone is too lenient: it reads a prefix (`"12abc"` becomes 12, `"1.2.3"`
/// becomes 1.2) and accepts spaces. This accepts only the JSON number grammar (or, for text we
/// wrote ourselves, its plain form without an exponent), at most 40 characters and 38 significant
/// digits (what a `Decimal` holds exactly), so that nothing odd can become a price.
///
/// The value is built from the digits, without a locale: `Decimal(string:locale:)` looks up the
/// locale's decimal separator through ICU on every call, which made it the costliest step of
/// decoding a payload (see docs/PERFORMANCE.md).
public enum ExactDecimal {
  public enum Grammar: Sendable {
    /// A JSON number: `-12.50e3`.
    case json
    /// A JSON number without an exponent, as `Decimal.description` writes it: `-12500`.
    case plain
  }

  public static func parse(_ text: String, grammar: Grammar = .json) -> Decimal? {
    guard text.utf8.count <= 40, let literal = Literal(text, exponentAllowed: grammar == .json)
    else { return nil }
    var digits = literal.digits.drop { $0 == 0 }
    var exponent = literal.exponent
    while digits.count > 1, digits.last == 0 {
      digits.removeLast()
      exponent += 1
    }
    guard digits.count <= 38 else { return nil }
    guard !digits.isEmpty else { return Decimal.zero }
    // Decimal's exponent is an Int8 (the value is significand × 10^exponent).
    guard (-128...127).contains(exponent) else { return nil }
    var significand = Decimal.zero
    var chunk: UInt64 = 0
    var chunkScale: UInt64 = 1
    for digit in digits {
      chunk = chunk * 10 + UInt64(digit)
      chunkScale *= 10
      if chunkScale == 1_000_000_000_000_000_000 {
        significand = significand * Decimal(chunkScale) + Decimal(chunk)
        (chunk, chunkScale) = (0, 1)
      }
    }
    significand = significand * Decimal(chunkScale) + Decimal(chunk)
    return Decimal(
      sign: literal.negative ? .minus : .plus, exponent: exponent, significand: significand)
  }

  /// A number in the JSON grammar, taken apart: `-12.50e3` is negative, digits 1 2 5 0, and
  /// exponent 3 - 2 = 1.
  private struct Literal {
    var negative = false
    /// Every digit of the integer and fraction parts, as values 0...9.
    var digits: [UInt8] = []
    var exponent = 0

    init?(_ text: String, exponentAllowed: Bool) {
      var bytes = text.utf8[...]
      func takeDigits() -> ArraySlice<UInt8> {
        let taken = bytes.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        bytes = bytes.dropFirst(taken.count)
        return ArraySlice(taken.map { $0 - UInt8(ascii: "0") })
      }
      if bytes.first == UInt8(ascii: "-") {
        negative = true
        bytes = bytes.dropFirst()
      }
      let integer = takeDigits()
      guard !integer.isEmpty else { return nil }
      digits.append(contentsOf: integer)
      if bytes.first == UInt8(ascii: ".") {
        bytes = bytes.dropFirst()
        let fraction = takeDigits()
        guard !fraction.isEmpty else { return nil }
        digits.append(contentsOf: fraction)
        exponent -= fraction.count
      }
      if exponentAllowed, bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
        bytes = bytes.dropFirst()
        var exponentSign = 1
        if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") {
          exponentSign = bytes.first == UInt8(ascii: "-") ? -1 : 1
          bytes = bytes.dropFirst()
        }
        let exponentDigits = takeDigits()
        guard (1...2).contains(exponentDigits.count) else { return nil }
        exponent += exponentSign * exponentDigits.reduce(0) { $0 * 10 + Int($1) }
      }
      guard bytes.isEmpty else { return nil }
    }
  }
}
