#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension Decimal {
  /// This value rounded to `scale` decimal places, half away from zero (`0.005` → `0.01`,
  /// `-0.005` → `-0.01`): what `NSDecimalRound(…, .plain)` gives, which FoundationEssentials
  /// does not have.
  public func roundedHalfUp(scale: Int) -> Decimal {
    if let parts = DecimalParts(self) {
      return parts.roundedHalfUp(scale: scale).decimal
    }
    return DecimalParts.roundedHalfUpFromText(self, scale: scale)
  }

  /// The exact value as digits, the same text as `description` (`68901.23`, `-0.5`, `100`).
  ///
  /// `description` in FoundationEssentials divides a variable-length integer by ten for each
  /// digit, allocating as it goes, three times per tick (the line, the words for VoiceOver, the
  /// `--json` record). This reads the digits of a value that fits 64 bits at once
  /// (docs/PERFORMANCE.md, "What we own in a tick", has the cost of both).
  public var plainText: String {
    DecimalParts(self)?.plainText ?? description
  }

  /// This value rounded half up to `fractionDigits` places, written with exactly that many
  /// (`1.10`, `0.00`, `-0.18`): how every percent in a JSON object is written. A value that
  /// rounds to zero has no sign.
  public func fixedText(fractionDigits: Int) -> String {
    let text = roundedHalfUp(scale: fractionDigits).plainText
    guard fractionDigits > 0 else { return text }
    guard let point = text.firstIndex(of: ".") else {
      return text + "." + String(repeating: "0", count: fractionDigits)
    }
    let written = text.distance(from: text.index(after: point), to: text.endIndex)
    return text + String(repeating: "0", count: max(0, fractionDigits - written))
  }
}

/// A `Decimal` that fits in 64 bits, taken apart: the value is ±coefficient × 10^exponent.
struct DecimalParts: Equatable {
  var negative: Bool
  var coefficient: UInt64
  var exponent: Int

  /// Reads the value's storage: an 8-bit exponent, a byte with the mantissa's length in 16-bit
  /// words and the sign and compact flags, 2 reserved bytes, then 8 little-endian 16-bit words.
  /// FoundationEssentials has no public accessors for these (Darwin's Foundation does), and the
  /// flag byte differs between implementations (``FlagLayout``), so the layout is recognised once,
  /// against values built through the public API; where neither layout matches, every value takes
  /// the portable path through `description`. Nil for NaN, for values over 64 bits and for
  /// non-compact values with trailing zeros (whose `description` may keep them).
  init?(_ value: Decimal) {
    guard let layout = Self.layout, let parts = Self.read(value, layout) else { return nil }
    self = parts
  }

  init(negative: Bool, coefficient: UInt64, exponent: Int) {
    self.negative = negative
    self.coefficient = coefficient
    self.exponent = exponent
  }

  /// Where the flag byte keeps the length (in words), the sign and the compact flag.
  struct FlagLayout {
    let lengthShift: UInt8
    let negative: UInt8
    let compact: UInt8

    /// swift-foundation (FoundationEssentials): length in the high 4 bits.
    static let swiftFoundation = FlagLayout(lengthShift: 4, negative: 0x08, compact: 0x04)
    /// The C `NSDecimal` bit fields: length in the low 4 bits.
    static let bitFields = FlagLayout(lengthShift: 0, negative: 0x10, compact: 0x20)
  }

  private static func read(_ value: Decimal, _ layout: FlagLayout) -> DecimalParts? {
    guard MemoryLayout<Decimal>.size == 20 else { return nil }
    return withUnsafeBytes(of: value) { raw -> DecimalParts? in
      let flags = raw[1]
      let length = Int((flags >> layout.lengthShift) & 0x0F)
      let negative = flags & layout.negative != 0
      let compact = flags & layout.compact != 0
      guard length > 0 else {
        return negative ? nil : DecimalParts(negative: false, coefficient: 0, exponent: 0)
      }
      guard length <= 8 else { return nil }
      var coefficient: UInt64 = 0
      for word in stride(from: length - 1, through: 0, by: -1) {
        let limb = UInt64(raw[4 + 2 * word]) | UInt64(raw[5 + 2 * word]) << 8
        guard coefficient >> 48 == 0 else { return nil }  // over 64 bits
        coefficient = coefficient << 16 | limb
      }
      let exponent = Int(Int8(bitPattern: raw[0]))
      guard compact || exponent >= 0 || coefficient % 10 != 0 else { return nil }
      return DecimalParts(negative: negative, coefficient: coefficient, exponent: exponent)
    }
  }

  private static let layout: FlagLayout? = [FlagLayout.swiftFoundation, .bitFields].first {
    layout in
    let probes: [(FloatingPointSign, Int, UInt64)] = [
      (.minus, -2, 12_345), (.plus, 3, 5), (.plus, -8, 1_234_567_890_123_456_789),
      (.minus, 0, 70_000), (.plus, 0, 0),
    ]
    return probes.allSatisfy { sign, exponent, coefficient in
      let value = Decimal(sign: sign, exponent: exponent, significand: Decimal(coefficient))
      guard let parts = read(value, layout) else { return false }
      return parts.decimal == value && parts.plainText == value.description
    }
  }

  static var layoutIsKnown: Bool { layout != nil }

  var decimal: Decimal {
    Decimal(sign: negative ? .minus : .plus, exponent: exponent, significand: Decimal(coefficient))
  }

  func roundedHalfUp(scale: Int) -> DecimalParts {
    let dropped = -exponent - scale
    guard dropped > 0 else { return self }
    guard dropped <= 19 else {
      // 10^20 is larger than any coefficient: less than half a unit of the last place kept.
      return DecimalParts(negative: false, coefficient: 0, exponent: 0)
    }
    var power: UInt64 = 1
    for _ in 0..<dropped { power *= 10 }
    var kept = coefficient / power
    if coefficient % power >= power / 2 { kept += 1 }
    return DecimalParts(negative: negative && kept > 0, coefficient: kept, exponent: -scale)
  }

  var plainText: String {
    guard coefficient > 0 else { return "0" }
    var digits = String(coefficient)
    if exponent > 0 {
      digits += String(repeating: "0", count: exponent)
    } else if exponent < 0 {
      let fractionDigits = -exponent
      if digits.utf8.count <= fractionDigits {
        digits = "0." + String(repeating: "0", count: fractionDigits - digits.utf8.count) + digits
      } else {
        digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -fractionDigits))
      }
    }
    return negative ? "-" + digits : digits
  }

  /// Rounding for the values ``DecimalParts`` does not hold, on the digits of `description`.
  static func roundedHalfUpFromText(_ value: Decimal, scale: Int) -> Decimal {
    let text = value.description
    let negative = text.hasPrefix("-")
    let unsigned = negative ? text.dropFirst() : text[...]
    let point = unsigned.firstIndex(of: ".") ?? unsigned.endIndex
    let fraction = point < unsigned.endIndex ? unsigned[unsigned.index(after: point)...] : ""
    guard fraction.count > scale else { return value }
    var digits = Array(unsigned[..<point].utf8) + Array(fraction.utf8.prefix(scale))
    let roundsUp = fraction.utf8.dropFirst(scale).first.map { $0 >= UInt8(ascii: "5") } ?? false
    var position = digits.count - 1
    while roundsUp, position >= 0 {
      if digits[position] == UInt8(ascii: "9") {
        digits[position] = UInt8(ascii: "0")
        position -= 1
      } else {
        digits[position] += 1
        break
      }
    }
    if roundsUp, position < 0 { digits.insert(UInt8(ascii: "1"), at: 0) }
    let integerCount = digits.count - scale
    var rounded = String(decoding: digits[..<integerCount], as: UTF8.self)
    if scale > 0 { rounded += "." + String(decoding: digits[integerCount...], as: UTF8.self) }
    return Decimal(string: (negative ? "-" : "") + rounded) ?? value
  }
}
