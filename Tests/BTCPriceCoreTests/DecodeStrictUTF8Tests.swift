import BTCPriceCore
import BTCPriceTestSupport
import Testing

/// `String(strictUTF8:)`: the bytes' text when they are UTF-8, nil otherwise, the same before
/// macOS 15 / iOS 18 (the fallback, which this machine never takes on its own) as after (the
/// standard library's `String(validating:as:)`).
@Suite("Decode strict UTF-8", .hangLimit(.seconds(30)))
struct DecodeStrictUTF8Tests {
  static let cases: [(name: String, bytes: [UInt8], text: String?)] = [
    ("empty", [], ""),
    ("ASCII", Array(#"{"p":"68901.23"}"#.utf8), #"{"p":"68901.23"}"#),
    ("two, three and four bytes", Array("é € 𝄞".utf8), "é € 𝄞"),
    ("a real U+FFFD is text", [0xEF, 0xBF, 0xBD], "\u{FFFD}"),
    ("NUL is text", [0x61, 0x00, 0x62], "a\u{0}b"),
    ("a lone continuation byte", [0x61, 0x80], nil),
    ("a lead byte without its continuation", [0xC3], nil),
    ("a three-byte sequence cut short", [0xE2, 0x82], nil),
    ("an overlong NUL", [0xC0, 0x80], nil),
    ("an overlong slash", [0xE0, 0x80, 0xAF], nil),
    ("a surrogate", [0xED, 0xA0, 0x80], nil),
    ("past U+10FFFF", [0xF4, 0x90, 0x80, 0x80], nil),
    ("0xFF", [0x7B, 0xFF, 0x7D], nil),
    ("valid, then one bad byte at the end", Array("68901.23".utf8) + [0xFE], nil),
  ]

  @Test(arguments: cases)
  func fallback_answersAsTheStandardLibraryDoes(name: String, bytes: [UInt8], text: String?) {
    #expect(String.strictUTF8Fallback(bytes) == text, "\(name)")
    #expect(String.strictUTF8Fallback(bytes[...]) == text, "\(name), as a slice")
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
      #expect(String(validating: bytes, as: UTF8.self) == text, "\(name): the table is wrong")
    }
  }

  /// ASCII is taken eight bytes at a time: a byte from 0x80 up is seen at every place of a
  /// word and of the tail after the last whole word, and a valid two-byte letter is still text.
  @Test func strictUTF8_seesABytePastASCIIWhereverItStands() {
    let ascii = Array(#"{"p":"68901.23","q":"0.5"}"#.utf8)
    for place in ascii.indices {
      for byte: UInt8 in [0x80, 0xBF, 0xFF] {
        var bytes = ascii
        bytes[place] = byte
        #expect(String(strictUTF8: bytes) == nil, "\(byte) at \(place)")
        #expect(String(strictUTF8: bytes[...]) == nil, "\(byte) at \(place), as a slice")
      }
      var letter = ascii
      letter.replaceSubrange(place...place, with: Array("é".utf8))
      #expect(
        String(strictUTF8: letter) == String(decoding: letter, as: UTF8.self), "é at \(place)")
    }
    #expect(String(strictUTF8: ascii) == #"{"p":"68901.23","q":"0.5"}"#)
  }

  @Test(arguments: cases)
  func strictUTF8_answersTheSameWhereverItRuns(name: String, bytes: [UInt8], text: String?) {
    #expect(String(strictUTF8: bytes) == text, "\(name)")
  }
}
