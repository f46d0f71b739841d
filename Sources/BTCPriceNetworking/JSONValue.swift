import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A parsed JSON document that keeps every number as its literal text.
///
/// Foundation's decoders read JSON numbers through `Double`, which turns CryptoCompare's
/// `68910.12` into `68910.119999...`. Prices must be exact (ENGINEERING rule 3), so the mappers
/// read payloads with this small strict parser (RFC 8259) and convert the literal text with
/// ``ExactDecimal``.
public enum JSONValue: Equatable, Sendable {
  case object([String: JSONValue])
  case array([JSONValue])
  case string(String)
  /// The number exactly as written in the payload, e.g. `68910.12` or `1.5e3`.
  case number(String)
  case bool(Bool)
  case null

  public struct SyntaxError: Error, Equatable, CustomStringConvertible {
    public let offset: Int
    public let reason: String
    public var description: String { "malformed JSON at byte \(offset): \(reason)" }
  }

  /// Parses one complete JSON document; trailing garbage, truncation and nesting deeper than
  /// `maxDepth` are errors.
  public static func parse(_ data: Data, maxDepth: Int = 32) throws(SyntaxError) -> JSONValue {
    var parser = Parser(bytes: [UInt8](data), maxDepth: maxDepth)
    return try parser.parseDocument()
  }

  public subscript(key: String) -> JSONValue? {
    if case .object(let members) = self { return members[key] }
    return nil
  }

  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  public var numberText: String? {
    if case .number(let text) = self { return text }
    return nil
  }

  public var objectValue: [String: JSONValue]? {
    if case .object(let members) = self { return members }
    return nil
  }

  public var arrayValue: [JSONValue]? {
    if case .array(let elements) = self { return elements }
    return nil
  }
}

private struct Parser {
  let bytes: [UInt8]
  let maxDepth: Int
  var index = 0
  var depth = 0

  init(bytes: [UInt8], maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
  }

  mutating func parseDocument() throws(JSONValue.SyntaxError) -> JSONValue {
    // A UTF-8 byte order mark is tolerated, as most JSON readers do.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    let value = try parseValue()
    skipWhitespace()
    guard index == bytes.count else { throw error("unexpected data after the document") }
    return value
  }

  private func error(_ reason: String) -> JSONValue.SyntaxError {
    JSONValue.SyntaxError(offset: index, reason: reason)
  }

  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  private mutating func parseValue() throws(JSONValue.SyntaxError) -> JSONValue {
    skipWhitespace()
    guard index < bytes.count else { throw error("unexpected end of data") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
    case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
    case UInt8(ascii: "n"): return try parseLiteral("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
    default: throw error("unexpected character")
    }
  }

  private mutating func parseLiteral(_ word: String, _ value: JSONValue) throws(JSONValue
    .SyntaxError)
    -> JSONValue
  {
    let expected = Array(word.utf8)
    guard bytes[index...].starts(with: expected) else { throw error("invalid literal") }
    index += expected.count
    return value
  }

  private mutating func enter() throws(JSONValue.SyntaxError) {
    depth += 1
    guard depth <= maxDepth else { throw error("nested deeper than \(maxDepth) levels") }
  }

  private mutating func parseObject() throws(JSONValue.SyntaxError) -> JSONValue {
    try enter()
    defer { depth -= 1 }
    index += 1
    var members: [String: JSONValue] = [:]
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw error("expected a member name")
      }
      let key = try parseString()
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
        throw error("expected ':'")
      }
      index += 1
      members[key] = try parseValue()
      skipWhitespace()
      guard index < bytes.count else { throw error("unexpected end of data") }
      switch bytes[index] {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "}"):
        index += 1
        return .object(members)
      default: throw error("expected ',' or '}'")
      }
    }
  }

  private mutating func parseArray() throws(JSONValue.SyntaxError) -> JSONValue {
    try enter()
    defer { depth -= 1 }
    index += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      elements.append(try parseValue())
      skipWhitespace()
      guard index < bytes.count else { throw error("unexpected end of data") }
      switch bytes[index] {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "]"):
        index += 1
        return .array(elements)
      default: throw error("expected ',' or ']'")
      }
    }
  }

  private mutating func parseNumber() throws(JSONValue.SyntaxError) -> String {
    let start = index
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else {
      skipDigits()
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
      skipDigits()
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
      skipDigits()
    }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  private mutating func skipDigits() {
    while index < bytes.count, isDigit(bytes[index]) { index += 1 }
  }

  private mutating func parseString() throws(JSONValue.SyntaxError) -> String {
    index += 1
    // Most strings (every key, every price) have no escape: one validation, one copy.
    let start = index
    while index < bytes.count, bytes[index] != UInt8(ascii: "\""),
      bytes[index] != UInt8(ascii: "\\"),
      bytes[index] >= 0x20
    {
      index += 1
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
      guard let text = String(strictUTF8: bytes[start..<index]) else {
        throw error("invalid UTF-8 in string")
      }
      index += 1
      return text
    }
    index = start
    var scalars = String.UnicodeScalarView()
    var run = index
    func flush(_ parser: Parser, upTo end: Int) -> Bool {
      guard let text = String(strictUTF8: parser.bytes[run..<end]) else {
        return false
      }
      scalars.append(contentsOf: text.unicodeScalars)
      return true
    }
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        guard flush(self, upTo: index) else { throw error("invalid UTF-8 in string") }
        index += 1
        return String(scalars)
      case UInt8(ascii: "\\"):
        guard flush(self, upTo: index) else { throw error("invalid UTF-8 in string") }
        index += 1
        scalars.append(try parseEscape())
        run = index
      case 0x00..<0x20:
        throw error("control character in string")
      default:
        index += 1
      }
    }
    throw error("unterminated string")
  }

  private mutating func parseEscape() throws(JSONValue.SyntaxError) -> Unicode.Scalar {
    guard index < bytes.count else { throw error("unterminated escape") }
    let byte = bytes[index]
    index += 1
    switch byte {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let high = try parseHex4()
      if (0xD800..<0xDC00).contains(high) {
        guard bytes[index...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else {
          throw error("unpaired surrogate")
        }
        index += 2
        let low = try parseHex4()
        guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate") }
        let combined = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
        guard let scalar = Unicode.Scalar(combined) else { throw error("invalid escape") }
        return scalar
      }
      guard let scalar = Unicode.Scalar(high) else { throw error("unpaired surrogate") }
      return scalar
    default:
      throw error("invalid escape")
    }
  }

  private mutating func parseHex4() throws(JSONValue.SyntaxError) -> UInt32 {
    guard index + 4 <= bytes.count else { throw error("unterminated escape") }
    var value: UInt32 = 0
    for byte in bytes[index..<index + 4] {
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw error("invalid \\u escape")
      }
      value = value * 16 + UInt32(digit)
    }
    index += 4
    return value
  }
}
