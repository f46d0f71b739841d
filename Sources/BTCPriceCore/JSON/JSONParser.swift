/// A strict RFC 8259 reader over bytes, for ``JSONValue`` and ``JSONObjectView``; an object that
/// names a member twice is refused, as I-JSON (RFC 7493) requires.
///
/// Every `parse…` takes `build`: with `false` it checks the same grammar (the same errors at the
/// same bytes) but builds nothing, which is how a view skips the members nobody asks for. It
/// does not check that a skipped string is valid UTF-8: its one user reads the bytes of a
/// `String`, valid UTF-8 by construction.
struct JSONParser {
  let bytes: [UInt8]
  let maxDepth: Int
  var index = 0
  var depth = 0
  /// Where each member of the outermost object is, when a ``JSONObjectView`` asks (nil: not
  /// kept).
  var spans: [Span]?

  /// A member of the outermost object: its key with the quotes, and its value.
  struct Span: Sendable {
    let key: Range<Int>
    let value: Range<Int>
  }

  init(bytes: [UInt8], maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
  }

  mutating func parseDocument() throws(JSONValue.SyntaxError) -> JSONValue {
    skipByteOrderMark()
    let value = try parseValue()
    try expectEnd()
    return value
  }

  /// A UTF-8 byte order mark is tolerated, as most JSON readers do.
  mutating func skipByteOrderMark() {
    if index == 0, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
  }

  mutating func expectEnd() throws(JSONValue.SyntaxError) {
    skipWhitespace()
    guard index == bytes.count else { throw error("unexpected data after the document") }
  }

  func error(_ reason: String) -> JSONValue.SyntaxError {
    JSONValue.SyntaxError(offset: index, reason: reason)
  }

  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  /// The next value; with `build` false, checked and stepped over (the answer is `.null`).
  mutating func parseValue(build: Bool = true) throws(JSONValue.SyntaxError) -> JSONValue {
    skipWhitespace()
    guard index < bytes.count else { throw error("unexpected end of data") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try parseObject(build: build)
    case UInt8(ascii: "["): return try parseArray(build: build)
    case UInt8(ascii: "\""): return try parseString(build: build).map(JSONValue.string) ?? .null
    case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
    case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
    case UInt8(ascii: "n"): return try parseLiteral("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return try parseNumber(build: build).map(JSONValue.number) ?? .null
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

  mutating func enter() throws(JSONValue.SyntaxError) {
    depth += 1
    guard depth <= maxDepth else { throw error("nested deeper than \(maxDepth) levels") }
  }

  private mutating func parseObject(build: Bool) throws(JSONValue.SyntaxError) -> JSONValue {
    try enter()
    defer { depth -= 1 }
    index += 1
    var members: [String: JSONValue] = [:]
    var names = MemberNames()
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
      let keyStart = index
      let key = try parseString(build: build)
      let keyEnd = index
      guard names.insert(keyStart..<keyEnd, decoded: key, of: self) else {
        throw JSONValue.SyntaxError(offset: keyStart, reason: "a member name written twice")
      }
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
        throw error("expected ':'")
      }
      index += 1
      skipWhitespace()
      let valueStart = index
      let value = try parseValue(build: build)
      if let key { members[key] = value }
      if depth == 1 { spans?.append(Span(key: keyStart..<keyEnd, value: valueStart..<index)) }
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

  private mutating func parseArray(build: Bool) throws(JSONValue.SyntaxError) -> JSONValue {
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
      let element = try parseValue(build: build)
      if build { elements.append(element) }
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

  private mutating func parseNumber(build: Bool) throws(JSONValue.SyntaxError) -> String? {
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
    return build ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  private mutating func skipDigits() {
    while index < bytes.count, isDigit(bytes[index]) { index += 1 }
  }

  /// The string at `index` (its opening quote); with `build` false, checked and stepped over.
  mutating func parseString(build: Bool = true) throws(JSONValue.SyntaxError) -> String? {
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
      if !build {
        index += 1
        return nil
      }
      guard let text = String(strictUTF8: bytes[start..<index]) else {
        throw error("invalid UTF-8 in string")
      }
      index += 1
      return build ? text : nil
    }
    index = start
    var scalars = String.UnicodeScalarView()
    var run = index
    func flush(_ parser: JSONParser, upTo end: Int) -> Bool {
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
        return build ? String(scalars) : nil
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

extension JSONParser {
  /// The member names of one object so far, to refuse a name written twice (RFC 7493, I-JSON:
  /// names MUST be unique). Parsers disagree on which of two copies wins, so a payload that
  /// repeats `"price"` could show one number to us and another to whoever checked it: we read
  /// neither. Names compare as decoded text (`"p"` and `"\u0070"` are the same name).
  ///
  /// Compared one by one while the object is small (every payload we read has under 20
  /// members), in a set past that, so a hostile object of many thousand members stays linear.
  struct MemberNames {
    private var small: [ArraySlice<UInt8>] = []
    private var large: Set<ArraySlice<UInt8>>?
    private static let smallLimit = 16

    /// Adds the name at `span` (with its quotes); false when the object already has it.
    /// `decoded` is the name when the parser built it, else it is decoded here if it holds an
    /// escape.
    mutating func insert(_ span: Range<Int>, decoded: String?, of parser: JSONParser) -> Bool {
      let name = Self.text(of: span, decoded: decoded, in: parser)
      if large != nil { return large!.insert(name).inserted }
      if small.contains(name) { return false }
      small.append(name)
      if small.count > Self.smallLimit {
        large = Set(small)
        small = []
      }
      return true
    }

    /// The name's UTF-8: the bytes between the quotes when it has no escape (the common case,
    /// no copy), else its decoded text.
    private static func text(of span: Range<Int>, decoded: String?, in parser: JSONParser)
      -> ArraySlice<UInt8>
    {
      let written = parser.bytes[(span.lowerBound + 1)..<(span.upperBound - 1)]
      guard written.contains(UInt8(ascii: "\\")) else { return written }
      if let decoded { return ArraySlice(decoded.utf8) }
      var copy = parser
      copy.index = span.lowerBound
      // Checked when it was read: decoding it again cannot fail.
      return ArraySlice(((try? copy.parseString()) ?? nil).map { Array($0.utf8) } ?? [])
    }
  }
}
