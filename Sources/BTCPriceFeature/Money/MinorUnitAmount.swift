#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An amount rounded to whole minor units (cents, or yen for a currency without decimals), half
/// away from zero, when that many units fit 64 bits (any price below 184 quadrillion dollars):
/// the line, the words for VoiceOver and the changes are written from these integers, without
/// going through the digits of a `Decimal` (docs/PERFORMANCE.md, "What we own in a tick").
struct MinorUnitAmount {
  let negative: Bool
  /// The amount in minor units: 6890123 for $68,901.23.
  let units: UInt64
  /// Minor units per whole unit, as a power of ten: 2 for cents.
  let decimals: Int

  init?(_ value: Decimal, decimals: Int) {
    guard decimals >= 0, decimals <= 4,
      let rounded = DecimalParts(value)?.roundedHalfUp(scale: decimals)
    else { return nil }
    var units = rounded.coefficient
    for _ in 0..<max(0, rounded.exponent + decimals) {
      let (product, overflow) = units.multipliedReportingOverflow(by: 10)
      guard !overflow else { return nil }
      units = product
    }
    self.negative = rounded.negative && units > 0
    self.units = units
    self.decimals = decimals
  }

  private var scale: UInt64 {
    var scale: UInt64 = 1
    for _ in 0..<decimals { scale *= 10 }
    return scale
  }

  /// The whole part with a comma every three digits: `68,901`.
  var groupedWhole: String {
    let whole = units / scale
    var digitCount = 1
    var rest = whole / 10
    while rest > 0 {
      digitCount += 1
      rest /= 10
    }
    let length = digitCount + (digitCount - 1) / 3
    return String(unsafeUninitializedCapacity: length) { buffer in
      var value = whole
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

  /// The minor units below the whole part, with their leading zeros: `05` of `$1.05`.
  var fractionDigits: String {
    var remainder = units % scale
    return String(unsafeUninitializedCapacity: decimals) { buffer in
      for position in stride(from: decimals - 1, through: 0, by: -1) {
        buffer[position] = UInt8(ascii: "0") + UInt8(remainder % 10)
        remainder /= 10
      }
      return decimals
    }
  }

  /// The minor units below the whole part, as a number: 5 of `$1.05`.
  var fraction: Int { Int(units % scale) }

  /// `68,901.23`, or `10,512,345` without decimals.
  var text: String {
    decimals > 0 ? groupedWhole + "." + fractionDigits : groupedWhole
  }
}
