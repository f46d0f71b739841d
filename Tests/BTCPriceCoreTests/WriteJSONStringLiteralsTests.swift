import BTCPriceCore
import BTCPriceTestSupport
import Foundation
import Testing

/// The one JSON string writer (`--json`'s lines, Waybar's state, the cache file): what it
/// escapes, what it leaves as it is, and that a JSON reader gets the string back.
@Suite("Write JSON string literals", .hangLimit(.seconds(30)))
struct WriteJSONStringLiteralsTests {
  @Test(arguments: [
    ("68901.23", #""68901.23""#),
    ("", #""""#),
    (#"say "hi""#, #""say \"hi\"""#),
    (#"a\b"#, #""a\\b""#),
    (#"""#, #""\"""#),
    (#"\"#, #""\\""#),
    ("\n\r\t", #""\n\r\t""#),
    ("\u{0}", #""\u0000""#),
    ("\u{1F}", #""\u001f""#),
    (" ~", #"" ~""#),
    ("\u{7F}", #""\u007f""#),
    ("é € ₿ 𝄞", #""é € ₿ 𝄞""#),
    ("a\u{2028}b\u{2029}", #""a\u2028b\u2029""#),
  ])
  func jsonLiteral_escapesWhatJSONAndJavaScriptNeed_andKeepsTheRest(text: String, literal: String)
    throws
  {
    #expect(text.jsonLiteral == literal)
    let array = try JSONSerialization.jsonObject(with: Data("[\(literal)]".utf8)) as? [String]
    #expect(array == [text])
  }
}
