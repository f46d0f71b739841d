#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A parsed JSON document that keeps every number as its literal text.
///
/// Foundation's decoders read JSON numbers through `Double`, which turns CryptoCompare's
/// `68910.12` into `68910.119999...`. Prices must be exact (ENGINEERING rule 3), so the mappers
/// read payloads with this small strict parser (RFC 8259; a member name written twice is refused,
/// as I-JSON asks) and convert the literal text with ``ExactDecimal``.
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
    var parser = JSONParser(bytes: [UInt8](data), maxDepth: maxDepth)
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
