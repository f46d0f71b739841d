#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How many satoshis (a hundred-millionth of a bitcoin) one unit of a currency buys:
/// 100,000,000 ÷ the price, rounded half up to a whole satoshi (`1451` at $68,901.23).
public enum Satoshis {
  /// Satoshis in one bitcoin.
  public static let perBitcoin: UInt64 = 100_000_000

  /// Satoshis one unit buys at `price` (a bitcoin's price in that unit); nil for a price of
  /// zero or below, which never reaches a view.
  ///
  /// Worked out in whole numbers where the price's digits allow, so the rounding is exact at
  /// every tie: with the price as P × 10^e, it is ⌊10^(8−e) ÷ P⌉.
  public static func perUnit(at price: Decimal) -> UInt64? {
    guard price > 0 else { return nil }
    if let parts = DecimalParts(price), !parts.negative, parts.coefficient > 0,
      let numerator = power(of: 10, 8 - parts.exponent)
    {
      let divisor = parts.coefficient
      let (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: divisor)
      // Half up: the remainder is at least half the divisor (compared without doubling it).
      return remainder >= divisor - remainder ? quotient + 1 : quotient
    }
    // A price with more digits than 64 bits hold: Decimal's 38-digit quotient, rounded.
    return UInt64((Decimal(perBitcoin) / price).roundedHalfUp(scale: 0).plainText)
  }

  /// `base`^`exponent` when it fits 64 bits and the exponent is not negative.
  private static func power(of base: UInt64, _ exponent: Int) -> UInt64? {
    guard exponent >= 0 else { return nil }
    var result: UInt64 = 1
    for _ in 0..<exponent {
      let (product, overflow) = result.multipliedReportingOverflow(by: base)
      guard !overflow else { return nil }
      result = product
    }
    return result
  }
}
