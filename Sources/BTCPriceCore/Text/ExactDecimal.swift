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
/// locale's decimal separator through ICU on every call, which would make it the costliest step
/// of decoding a payload (docs/PERFORMANCE.md, "What we own in a tick").
public enum ExactDecimal {
  public enum Grammar: Sendable {
    /// A JSON number: `-12.50e3`.
    case json
    /// A JSON number without an exponent, as `Decimal.description` writes it: `-12500`.
    case plain
  }

  public static func parse(_ text: String, grammar: Grammar = .json) -> Decimal? {
    let utf8 = text.utf8
    guard utf8.count <= 40 else { return nil }
    let exponentAllowed = grammar == .json
    // A price is read for every stream message: the digits go through a buffer on the stack,
    // never an array (docs/PERFORMANCE.md, "What we own in a tick").
    if let value = utf8.withContiguousStorageIfAvailable({
      parse($0, exponentAllowed: exponentAllowed)
    }) {
      return value
    }
    return Array(utf8).withUnsafeBufferPointer { parse($0, exponentAllowed: exponentAllowed) }
  }

  /// `text`'s value, its bytes at most 40.
  private static func parse(_ text: UnsafeBufferPointer<UInt8>, exponentAllowed: Bool)
    -> Decimal?
  {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { digits in
      guard let literal = Literal(text, exponentAllowed: exponentAllowed, digits: digits) else {
        return nil
      }
      return value(of: literal, digits: digits)
    }
  }

  /// The literal's value: its digits without the leading zeros and with the trailing ones moved
  /// into the exponent, at most 38 of them, and an exponent a `Decimal` holds.
  private static func value(of literal: Literal, digits: UnsafeMutableBufferPointer<UInt8>)
    -> Decimal?
  {
    // Searched for, not stepped over in a loop of our own: a step left out would spin forever,
    // with no test to name it (scripts/mutate's time-outs).
    let written = digits[..<literal.count]
    guard let first = written.firstIndex(where: { $0 != 0 }) else { return Decimal.zero }
    let end = written.lastIndex(where: { $0 != 0 })! + 1
    let exponent = literal.exponent + (literal.count - end)
    guard end - first <= 38 else { return nil }
    // Decimal's exponent is an Int8 (the value is significand × 10^exponent).
    guard (-128...127).contains(exponent) else { return nil }
    // In chunks of 18 digits, each exact in a UInt64; one chunk (every price) needs no
    // Decimal arithmetic at all.
    var significand: Decimal?
    var chunk: UInt64 = 0
    var chunkScale: UInt64 = 1
    for digit in digits[first..<end] {
      chunk = chunk * 10 + UInt64(digit)
      chunkScale *= 10
      if chunkScale == 1_000_000_000_000_000_000 {
        significand =
          significand.map { $0 * Decimal(chunkScale) + Decimal(chunk) } ?? Decimal(chunk)
        (chunk, chunkScale) = (0, 1)
      }
    }
    if chunkScale > 1 {
      significand = significand.map { $0 * Decimal(chunkScale) + Decimal(chunk) } ?? Decimal(chunk)
    }
    return Decimal(
      sign: literal.negative ? .minus : .plus, exponent: exponent,
      significand: significand ?? Decimal.zero)
  }

  /// A number in the JSON grammar, taken apart: `-12.50e3` is negative, digits 1 2 5 0 (written
  /// to the caller's buffer, as values 0...9), and exponent 3 - 2 = 1.
  private struct Literal {
    var negative = false
    /// How many digits of the integer and fraction parts were written.
    var count = 0
    var exponent = 0

    init?(
      _ bytes: UnsafeBufferPointer<UInt8>, exponentAllowed: Bool,
      digits: UnsafeMutableBufferPointer<UInt8>
    ) {
      var index = 0
      func isDigit(_ index: Int) -> Bool {
        index < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index])
      }
      func next(is byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }
      var written = 0
      /// Copies the run of digits at `index` after those written so far; returns its length.
      func takeDigits() -> Int {
        let start = index
        while isDigit(index) {
          digits[written] = bytes[index] - UInt8(ascii: "0")
          written += 1
          index += 1
        }
        return index - start
      }
      if next(is: UInt8(ascii: "-")) {
        negative = true
        index += 1
      }
      guard takeDigits() > 0 else { return nil }
      if next(is: UInt8(ascii: ".")) {
        index += 1
        let fraction = takeDigits()
        guard fraction > 0 else { return nil }
        exponent -= fraction
      }
      count = written
      if exponentAllowed, next(is: UInt8(ascii: "e")) || next(is: UInt8(ascii: "E")) {
        index += 1
        var exponentSign = 1
        if next(is: UInt8(ascii: "+")) || next(is: UInt8(ascii: "-")) {
          exponentSign = next(is: UInt8(ascii: "-")) ? -1 : 1
          index += 1
        }
        let exponentStart = index
        while isDigit(index) { index += 1 }
        guard (1...2).contains(index - exponentStart) else { return nil }
        let written = bytes[exponentStart..<index].reduce(0) {
          $0 * 10 + Int($1 - UInt8(ascii: "0"))
        }
        exponent += exponentSign * written
      }
      guard index == bytes.count else { return nil }
    }
  }
}
