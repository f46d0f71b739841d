#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// JSON as the fuzz oracles read it: a reader of its own, written from RFC 8259 and not from the
/// product's parser, that keeps every member in order, repeated names included. An oracle asks
/// for a member with ``member(_:)``, which answers only when the name is there exactly once:
/// an answer that names a field twice is ambiguous, and no price may come out of it.
indirect enum OracleJSON: Equatable {
  case object([Member])
  case array([OracleJSON])
  case string(String)
  case number(String)
  case bool(Bool)
  case null

  struct Member: Equatable {
    let name: String
    let value: OracleJSON
  }

  /// The member named `name` when the object has exactly one of that name; nil otherwise.
  func member(_ name: String) -> OracleJSON? {
    guard case .object(let members) = self else { return nil }
    let named = members.filter { $0.name == name }
    return named.count == 1 ? named[0].value : nil
  }

  var members: [Member]? {
    if case .object(let members) = self { return members }
    return nil
  }

  var elements: [OracleJSON]? {
    if case .array(let elements) = self { return elements }
    return nil
  }

  var string: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  var number: String? {
    if case .number(let text) = self { return text }
    return nil
  }

  /// True when some object, at any depth, names a member twice.
  var repeatsAName: Bool {
    switch self {
    case .object(let members):
      return Set(members.map(\.name)).count != members.count
        || members.contains { $0.value.repeatsAName }
    case .array(let elements): return elements.contains { $0.repeatsAName }
    default: return false
    }
  }

  /// How deep the containers nest: 0 for a scalar, 1 for `[]`.
  var depth: Int {
    switch self {
    case .object(let members): return 1 + (members.map(\.value.depth).max() ?? 0)
    case .array(let elements): return 1 + (elements.map(\.depth).max() ?? 0)
    default: return 0
    }
  }

  /// Reads one JSON document (a UTF-8 byte order mark first is allowed); nil when the bytes are
  /// not one.
  static func read(_ bytes: [UInt8]) -> OracleJSON? {
    var reader = Reader(bytes: bytes)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.at = 3 }
    guard let value = reader.value(depth: 0) else { return nil }
    reader.skipSpace()
    return reader.at == bytes.count ? value : nil
  }

  private struct Reader {
    let bytes: [UInt8]
    var at = 0

    var next: UInt8? { at < bytes.count ? bytes[at] : nil }

    mutating func skipSpace() {
      while let byte = next, [0x20, 0x09, 0x0A, 0x0D].contains(byte) { at += 1 }
    }

    mutating func take(_ literal: String) -> Bool {
      let expected = Array(literal.utf8)
      guard bytes.count - at >= expected.count, Array(bytes[at..<at + expected.count]) == expected
      else { return false }
      at += expected.count
      return true
    }

    mutating func value(depth: Int) -> OracleJSON? {
      // Far past any depth a parser under test accepts; it only keeps this reader's stack safe.
      guard depth < 200 else { return nil }
      skipSpace()
      switch next {
      case UInt8(ascii: "{"):
        at += 1
        var members: [Member] = []
        skipSpace()
        if next == UInt8(ascii: "}") {
          at += 1
          return .object(members)
        }
        while true {
          skipSpace()
          guard next == UInt8(ascii: "\""), let name = string() else { return nil }
          skipSpace()
          guard next == UInt8(ascii: ":") else { return nil }
          at += 1
          guard let value = value(depth: depth + 1) else { return nil }
          members.append(Member(name: name, value: value))
          skipSpace()
          if next == UInt8(ascii: ",") {
            at += 1
          } else if next == UInt8(ascii: "}") {
            at += 1
            return .object(members)
          } else {
            return nil
          }
        }
      case UInt8(ascii: "["):
        at += 1
        var elements: [OracleJSON] = []
        skipSpace()
        if next == UInt8(ascii: "]") {
          at += 1
          return .array(elements)
        }
        while true {
          guard let value = value(depth: depth + 1) else { return nil }
          elements.append(value)
          skipSpace()
          if next == UInt8(ascii: ",") {
            at += 1
          } else if next == UInt8(ascii: "]") {
            at += 1
            return .array(elements)
          } else {
            return nil
          }
        }
      case UInt8(ascii: "\""):
        return string().map(OracleJSON.string)
      case UInt8(ascii: "t"): return take("true") ? .bool(true) : nil
      case UInt8(ascii: "f"): return take("false") ? .bool(false) : nil
      case UInt8(ascii: "n"): return take("null") ? .null : nil
      default: return number().map(OracleJSON.number)
      }
    }

    /// A number by RFC 8259's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func number() -> String? {
      let start = at
      func digits(_ reader: inout Reader) -> Int {
        var count = 0
        while let byte = reader.next, (0x30...0x39).contains(byte) {
          reader.at += 1
          count += 1
        }
        return count
      }
      if next == UInt8(ascii: "-") { at += 1 }
      if next == UInt8(ascii: "0") {
        at += 1
      } else if digits(&self) == 0 {
        return nil
      }
      if next == UInt8(ascii: ".") {
        at += 1
        guard digits(&self) > 0 else { return nil }
      }
      if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
        at += 1
        if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { at += 1 }
        guard digits(&self) > 0 else { return nil }
      }
      return String(decoding: bytes[start..<at], as: UTF8.self)
    }

    /// A string, its escapes decoded; nil on a control character, a bad escape, a lone
    /// surrogate or bytes that are not UTF-8.
    mutating func string() -> String? {
      at += 1
      var scalars = String.UnicodeScalarView()
      var raw: [UInt8] = []
      func flush(_ raw: inout [UInt8], into scalars: inout String.UnicodeScalarView) -> Bool {
        guard !raw.isEmpty else { return true }
        guard let text = String(validating: raw, as: UTF8.self) else { return false }
        scalars.append(contentsOf: text.unicodeScalars)
        raw.removeAll()
        return true
      }
      while let byte = next {
        at += 1
        switch byte {
        case UInt8(ascii: "\""):
          guard flush(&raw, into: &scalars) else { return nil }
          return String(scalars)
        case UInt8(ascii: "\\"):
          guard flush(&raw, into: &scalars), let escaped = next else { return nil }
          at += 1
          switch escaped {
          case UInt8(ascii: "\""): scalars.append("\"")
          case UInt8(ascii: "\\"): scalars.append("\\")
          case UInt8(ascii: "/"): scalars.append("/")
          case UInt8(ascii: "b"): scalars.append("\u{08}")
          case UInt8(ascii: "f"): scalars.append("\u{0C}")
          case UInt8(ascii: "n"): scalars.append("\n")
          case UInt8(ascii: "r"): scalars.append("\r")
          case UInt8(ascii: "t"): scalars.append("\t")
          case UInt8(ascii: "u"):
            guard let unit = hex4() else { return nil }
            if (0xD800...0xDBFF).contains(unit) {
              guard take("\\u"), let low = hex4(), (0xDC00...0xDFFF).contains(low) else {
                return nil
              }
              let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
              guard let scalar = Unicode.Scalar(value) else { return nil }
              scalars.append(scalar)
            } else {
              guard let scalar = Unicode.Scalar(unit) else { return nil }
              scalars.append(scalar)
            }
          default: return nil
          }
        default:
          guard byte >= 0x20 else { return nil }
          raw.append(byte)
        }
      }
      return nil
    }

    mutating func hex4() -> UInt32? {
      guard bytes.count - at >= 4 else { return nil }
      var value: UInt32 = 0
      for byte in bytes[at..<at + 4] {
        let digit: UInt32
        switch byte {
        case 0x30...0x39: digit = UInt32(byte - 0x30)
        case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
        case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
        default: return nil
        }
        value = value * 16 + digit
      }
      at += 4
      return value
    }
  }
}

/// A number's value in one canonical spelling, so that two texts of the same number compare
/// equal (`68901.230`, `6.890123e4`, and a `Decimal`'s description of it): sign, the significant
/// digits without leading or trailing zeros, and the power of ten of the last one.
struct OracleNumber: Equatable, CustomStringConvertible {
  let negative: Bool
  let digits: String
  let exponent: Int

  /// Reads `-? digits (. digits)? ([eE] [+-]? digits)?`, with leading zeros and a bare leading
  /// or trailing point allowed (a price string is read by this too); nil for anything else, and
  /// for exponents beyond ±10⁹.
  init?(_ text: String) {
    var rest = Substring(text)
    let minus = rest.first == "-"
    if minus { rest = rest.dropFirst() }
    var exponent = 0
    if let mark = rest.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      var power = rest[rest.index(after: mark)...]
      let sign = power.first == "-" ? -1 : 1
      if power.first == "-" || power.first == "+" { power = power.dropFirst() }
      guard !power.isEmpty, power.count <= 9, power.allSatisfy(\.isASCIIDigit),
        let value = Int(power)
      else { return nil }
      exponent = sign * value
      rest = rest[..<mark]
    }
    let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
      parts.contains(where: { !$0.isEmpty })
    else { return nil }
    let fraction = parts.count == 2 ? parts[1] : ""
    var all = Substring(parts[0] + fraction)
    exponent -= fraction.count
    while all.first == "0" { all = all.dropFirst() }
    while all.last == "0" {
      all = all.dropLast()
      exponent += 1
    }
    if all.isEmpty {
      self.negative = false
      self.digits = "0"
      self.exponent = 0
    } else {
      self.negative = minus
      self.digits = String(all)
      self.exponent = exponent
    }
  }

  init?(_ decimal: Decimal) {
    self.init(decimal.description)
  }

  var description: String { "\(negative ? "-" : "")\(digits)e\(exponent)" }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
