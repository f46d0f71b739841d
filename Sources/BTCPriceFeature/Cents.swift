#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An amount rounded to whole cents, half away from zero, when that many cents fit 64 bits
/// (any price below 184 quadrillion dollars): the line, the words for VoiceOver and the changes
/// are written from these integers, without going through the digits of a `Decimal`
/// (docs/PERFORMANCE.md, "What we own in a tick").
struct Cents {
  let negative: Bool
  let cents: UInt64

  init?(_ value: Decimal) {
    guard let rounded = DecimalParts(value)?.roundedHalfUp(scale: 2) else { return nil }
    var cents = rounded.coefficient
    for _ in 0..<max(0, rounded.exponent + 2) {
      let (product, overflow) = cents.multipliedReportingOverflow(by: 10)
      guard !overflow else { return nil }
      cents = product
    }
    negative = rounded.negative && cents > 0
    self.cents = cents
  }

  /// The whole dollars with a comma every three digits: `68,901`.
  var groupedDollars: String {
    let dollars = cents / 100
    var digitCount = 1
    var rest = dollars / 10
    while rest > 0 {
      digitCount += 1
      rest /= 10
    }
    let length = digitCount + (digitCount - 1) / 3
    return String(unsafeUninitializedCapacity: length) { buffer in
      var value = dollars
      var position = length
      for digit in 0..<digitCount {
        if digit > 0, digit % 3 == 0 {
          position -= 1
          buffer[position] = UInt8(ascii: ",")
        }
        position -= 1
        buffer[position] = UInt8(ascii: "0") + UInt8(value % 10)
        value /= 10
      }
      return length
    }
  }

  /// The cents as two digits: `05`.
  var twoDigitCents: String {
    let remainder = UInt8(cents % 100)
    return String(unsafeUninitializedCapacity: 2) { buffer in
      buffer[0] = UInt8(ascii: "0") + remainder / 10
      buffer[1] = UInt8(ascii: "0") + remainder % 10
      return 2
    }
  }
}
