import BTCPriceCore
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Lossless JSON parsing", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct JSONValueTests {
  @Test func parse_keepsNumbersAsTheirLiteralText() throws {
    let json = try parse(#"{"a":68910.12,"b":-0.5e-3,"c":[1,2.50,1E+2]}"#)

    #expect(json["a"] == .number("68910.12"))
    #expect(json["b"] == .number("-0.5e-3"))
    #expect(json["c"] == .array([.number("1"), .number("2.50"), .number("1E+2")]))
  }

  @Test func parse_decodesStringEscapesAndSurrogatePairs() throws {
    let json = try parse(#"{"s":"a\"b\\c\/d\n\u00e9\ud83d\ude00"}"#)

    #expect(json["s"] == .string("a\"b\\c/d\né😀"))
  }

  @Test func parse_readsLiteralsAndNestedValues() throws {
    let json = try parse(#" { "t" : true , "f":false, "n":null, "o":{"x":[]}, "e":{} } "#)

    #expect(
      json
        == .object([
          "t": .bool(true), "f": .bool(false), "n": .null, "o": .object(["x": .array([])]),
          "e": .object([:]),
        ]))
  }

  /// `\u` escapes: hexadecimal in either case, a surrogate pair at each end of its ranges, and
  /// the code points just outside them as what they are.
  @Test(arguments: [
    (#""\u00E9\u00e9\u00Ff""#, "ééÿ"),
    (#""\uD7FF""#, "\u{D7FF}"), (#""\uE000""#, "\u{E000}"),
    (#""\uD800\uDC00""#, "\u{10000}"), (#""\uDBFF\uDFFF""#, "\u{10FFFF}"),
    (#""\uD800\uDFFF\uDBFF\uDC00""#, "\u{103FF}\u{10FC00}"),
  ])
  func parse_decodesUnicodeEscapesAtTheEdgesOfTheSurrogateRanges(text: String, decoded: String)
    throws
  {
    #expect(try parse(text) == .string(decoded))
  }

  /// A surrogate that is not half of a pair is refused, whichever half it is and whatever
  /// follows it.
  @Test(arguments: [
    #""\uDC00""#, #""\uDFFF""#, #""\uDC00\uDC00""#, #""\uD800\uDBFF""#, #""\uD800\uE000""#,
    #""\uDBFF\u0041""#, #""\uD800""#,
  ])
  func parse_refusesALoneSurrogate(text: String) {
    #expect(throws: JSONValue.SyntaxError.self) { try parse(text) }
  }

  /// What a truncated escape is called: the escape itself when its four digits are cut, the
  /// string when the escape is whole and the closing quote is missing.
  @Test func parse_namesWhatATruncatedEscapeLacks() {
    #expect {
      try parse(#""\u004"#)
    } throws: {
      "\($0)" == "malformed JSON at byte 3: unterminated escape"
    }
    #expect {
      try parse(#""\u0041"#)
    } throws: {
      "\($0)" == "malformed JSON at byte 7: unterminated string"
    }
  }

  /// JSON's whitespace is space, tab, line feed and carriage return (RFC 8259, section 2), around
  /// every token; the bytes next to them are not whitespace, and a document with one is refused.
  @Test func parse_takesExactlyJSONsFourWhitespaceBytes() throws {
    for space in [" ", "\t", "\n", "\r"] {
      let text = ["", "{", "\"a\"", ":", "[", "1", ",", "true", "]", "}", ""].joined(
        separator: space)
      #expect(
        try parse(text) == .object(["a": .array([.number("1"), .bool(true)])]),
        "separated by \(Array(space.utf8))")
    }
    for byte: UInt8 in [0x08, 0x0B, 0x0C, 0x0E, 0x1F, 0x21] {
      let text = "{\"a\":" + String(decoding: [byte], as: UTF8.self) + "1}"
      #expect(throws: JSONValue.SyntaxError.self, "byte \(byte)") { try parse(text) }
    }
  }

  @Test(
    "parse_rejectsMalformedDocuments",
    arguments: [
      "", " ", "{", "}", "[1,]", "{\"a\":}", "{\"a\" 1}", "{a:1}", "01", "1.", ".5", "-", "1e",
      "+1",
      "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "tru", "nul", "{\"a\":1}x", "[1 2]",
      "\"a\u{01}b\"",
    ])
  func parse_rejectsMalformedDocuments(text: String) {
    #expect(throws: JSONValue.SyntaxError.self) { try parse(text) }
  }

  @Test func parse_rejectsInvalidUTF8() {
    #expect(throws: JSONValue.SyntaxError.self) { try JSONValue.parse(Data([0x22, 0xFF, 0x22])) }
  }

  @Test func parse_rejectsNestingDeeperThanTheLimit() {
    let deep = String(repeating: "[", count: 33) + String(repeating: "]", count: 33)

    #expect(throws: JSONValue.SyntaxError.self) { try parse(deep) }
    #expect(throws: Never.self) {
      try parse(String(repeating: "[", count: 32) + String(repeating: "]", count: 32))
    }
  }

  private func parse(_ text: String) throws -> JSONValue {
    try JSONValue.parse(Data(text.utf8))
  }
}
