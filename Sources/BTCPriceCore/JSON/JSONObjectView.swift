/// A JSON object whose members are built only when asked for.
///
/// A stream message is read a few times a second for two or three of its members (a Binance
/// trade has eleven, a Coinbase ticker sixteen), so building each of them as a ``JSONValue``
/// would be most of a message's cost (docs/PERFORMANCE.md, "What we own in a tick"). The view
/// checks the whole document exactly as strictly as
/// ``JSONValue/parse(_:maxDepth:)`` does (the same documents refused), keeps where each member
/// of the object is, and builds a member's value when its key is asked for.
public struct JSONObjectView: Sendable {
  /// Why a text is no view: not JSON, or JSON that is not an object.
  public enum Failure: Error, Equatable {
    case syntax(JSONValue.SyntaxError)
    case notAnObject
  }

  private let bytes: [UInt8]
  private let spans: [JSONParser.Span]
  private let maxDepth: Int

  /// Checks one complete JSON document and keeps its members; trailing garbage, truncation and
  /// nesting deeper than `maxDepth` are ``Failure/syntax(_:)``, as in ``JSONValue``.
  public init(_ text: String, maxDepth: Int = 32) throws(Failure) {
    var parser = JSONParser(bytes: Array(text.utf8), maxDepth: maxDepth)
    // A Coinbase ticker has sixteen members: one allocation for their places, not five growing.
    parser.spans = []
    parser.spans?.reserveCapacity(16)
    let isObject: Bool
    do {
      parser.skipByteOrderMark()
      parser.skipWhitespace()
      isObject =
        parser.index < parser.bytes.count && parser.bytes[parser.index] == UInt8(ascii: "{")
      _ = try parser.parseValue(build: false)
      try parser.expectEnd()
    } catch {
      throw .syntax(error)
    }
    guard isObject else { throw .notAnObject }
    self.bytes = parser.bytes
    self.spans = parser.spans ?? []
    self.maxDepth = maxDepth
  }

  /// The value of the member named `key` (an object never names a member twice: the view, as
  /// ``JSONValue``, refuses one that does); nil when there is none.
  public subscript(key: String) -> JSONValue? {
    var wanted = key
    let found = wanted.withUTF8 { keyBytes in spans.first { has($0, keyBytes, key) } }
    guard let span = found else { return nil }
    var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
    parser.index = span.value.lowerBound
    // Checked when the view was made: building it cannot fail.
    return try? parser.parseValue()
  }

  /// Whether the member's key is `key`: compared as bytes, unless the key was written with an
  /// escape (`"\u0070"` is `"p"`).
  ///
  /// `keyBytes` are `key`'s UTF-8, compared as bytes without walking the string's view: a key
  /// is looked for in every member of every stream message.
  private func has(_ span: JSONParser.Span, _ keyBytes: UnsafeBufferPointer<UInt8>, _ key: String)
    -> Bool
  {
    let written = bytes[(span.key.lowerBound + 1)..<(span.key.upperBound - 1)]
    guard written.contains(UInt8(ascii: "\\")) else {
      // Most keys differ in length: that test is cheaper than walking the bytes.
      guard written.count == keyBytes.count else { return false }
      var offset = 0
      while offset < keyBytes.count {
        guard written[written.startIndex + offset] == keyBytes[offset] else { return false }
        offset += 1
      }
      return true
    }
    var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
    parser.index = span.key.lowerBound
    return (try? parser.parseString()) == key
  }
}
