import BTCPriceCore
import BTCPriceTestSupport
import Foundation
import Testing

/// The view a stream message is read through must refuse exactly the documents the full parser
/// refuses and give every member exactly as the full parser builds it: the checks below compare
/// the two on real-shaped messages and on every one-byte damage of them.
@Suite("Read a JSON object for the members asked for", .hangLimit(.seconds(30)))
struct JSONObjectViewTests {
  /// One message of each stream's shape, with nesting, arrays, numbers, literals and escapes.
  static let messages = [
    #"{"e":"trade","E":1763800000123,"s":"BTCUSDT","t":5123456789,"p":"68901.23000000","#
      + #""q":"0.00100000","T":1763800000120,"m":true,"M":true}"#,
    #"{"type":"ticker","sequence":3262786978,"product_id":"BTC-USD","price":"68880.55","#
      + #""open_24h":"67000.01","side":"buy","time":"2026-11-22T08:26:40.123456Z","trade_id":1}"#,
    #"{"channel":"ticker","type":"update","data":[{"symbol":"BTC/USD","last":68870.1,"#
      + #""change_pct":-1.5e-2,"ok":null}]}"#,
    #"{"event":"trade","channel":"live_trades_btcusd","data":{"price":73285,"price_str":"73285"}}"#,
    #"{"arg":{"channel":"tickers","instId":"BTC-USDT"},"data":[{"instId":"BTC-USDT","last":"9999.99"}]}"#,
    #" {"m\u0065ssage":"caf\u00e9 \ud83d\ude00 \"quoted\"","reason":"\/","n":[[],{}]} "#,
  ]

  @Test(arguments: messages)
  func view_givesEveryMemberAsTheFullParserBuildsIt(text: String) throws {
    let full = try #require(try JSONValue.parse(Data(text.utf8)).objectValue)
    let view = try JSONObjectView(text)

    for (key, value) in full { #expect(view[key] == value, "member \(key)") }
    #expect(view["absent"] == nil)
  }

  @Test(arguments: messages)
  func view_refusesExactlyWhatTheFullParserRefuses_atEveryDamagedByte(text: String) {
    let bytes = Array(text.utf8)
    var damaged: [[UInt8]] = []
    for index in bytes.indices {
      var cut = bytes
      cut.remove(at: index)
      damaged.append(cut)
      damaged.append(Array(bytes[..<index]))
      for byte: UInt8 in [0x22, 0x5C, 0x7B, 0x5D, 0x2C, 0x01, 0xFF] {
        var changed = bytes
        changed[index] = byte
        damaged.append(changed)
      }
    }
    var disagreements: [String] = []
    for document in damaged {
      let text = String(decoding: document, as: UTF8.self)
      if verdict(ofFullParse: text) != verdict(ofView: text) { disagreements.append(text) }
    }
    #expect(
      disagreements.isEmpty,
      "\(disagreements.count) of \(damaged.count), e.g. \(disagreements.prefix(3))")
  }

  @Test(
    arguments: [
      "", " ", "{", "}", "[1,]", "{\"a\":}", "{\"a\" 1}", "{a:1}", "01", "1.", ".5", "-", "1e",
      "+1",
      "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "tru", "nul", "{\"a\":1}x", "[1 2]",
      "\"a\u{01}b\"", "{\"a\":\"\\ud800\"}", "{\"a\":[1,]}", "{\"a\":1,}", "{\"a\":01}",
    ])
  func view_refusesMalformedDocumentsAsNotJSON(text: String) {
    #expect(verdict(ofView: text) == "syntax")
  }

  @Test(arguments: ["[1,2,3]", "\"text\"", "68901.23", "null", "true", " [ {\"p\":\"1\"} ] "])
  func view_refusesAWellFormedDocumentThatIsNoObject(text: String) {
    #expect(verdict(ofView: text) == "notAnObject")
  }

  /// Parsers disagree on which copy of a repeated name wins (the last, the first, an error), so
  /// a payload that names its price twice is no payload: `{"price":"74192.71","price":"1"}` must
  /// not show $1, nor $74,192.71.
  @Test(
    arguments: [
      #"{"price":"74192.71","price":"1"}"#,
      #"{"p":"1.00","q":2,"p":"2.00"}"#,
      #"{"p":"1.00","\u0070":"2.00"}"#,
      #"{"data":{"amount":"68880.55","base":"BTC","amount":"1"}}"#,
      #"{"data":[{"symbol":"BTC/USD","symbol":"ETH/USD","last":1}]}"#,
      #"{"ignored":{"a":1,"a":2},"p":"1"}"#,
      #"{"a\u00e9":1,"aé":2}"#,
    ])
  func view_refusesAMemberNameWrittenTwice_asTheFullParserDoes(text: String) {
    #expect(verdict(ofView: text) == "syntax")
    #expect(verdict(ofFullParse: text) == "syntax")
  }

  @Test func parse_saysWhichNameCameTwice_atItsSecondCopy() {
    let text = #"{"price":"74192.71","price":"1"}"#

    #expect {
      try JSONValue.parse(Data(text.utf8))
    } throws: { error in
      (error as? JSONValue.SyntaxError)?.description
        == "malformed JSON at byte 20: a member name written twice"
    }
  }

  /// Past 16 members the names are kept in a set: a repeat is still found there, and names that
  /// differ are still all taken.
  @Test(arguments: [3, 16, 17, 40])
  func view_findsARepeatedName_amongManyMembers(count: Int) throws {
    let members = (0..<count).map { #""k\#($0)":\#($0)"# }
    let distinct = "{" + members.joined(separator: ",") + "}"
    let repeated = "{" + (members + [#""k\#(count / 2)":0"#]).joined(separator: ",") + "}"

    #expect(verdict(ofView: distinct) == "object")
    #expect(verdict(ofFullParse: distinct) == "object")
    #expect(verdict(ofView: repeated) == "syntax")
    #expect(verdict(ofFullParse: repeated) == "syntax")
    #expect(try JSONObjectView(distinct)["k\(count - 1)"] == .number("\(count - 1)"))
  }

  @Test func view_takesTheSameNameInTwoObjects() throws {
    let text = #"{"p":"1","data":{"p":"2"},"list":[{"p":"3"},{"p":"4"}]}"#

    #expect(try JSONObjectView(text)["data"]?["p"] == .string("2"))
    #expect(try JSONValue.parse(Data(text.utf8))["p"] == .string("1"))
  }

  @Test func view_comparesEveryByteOfAKey() throws {
    let view = try JSONObjectView(#"{"price":"1","prize":"2"}"#)

    #expect(view["price"] == .string("1"))
    #expect(view["prize"] == .string("2"))
    #expect(view["prime"] == nil)
  }

  /// A byte order mark before the document is allowed (RFC 8259 §8.1 lets a parser ignore it).
  @Test func view_readsADocumentAfterAByteOrderMark_asTheFullParserDoes() throws {
    let text = "\u{FEFF}{\"p\":\"68901.23\"}"

    #expect(try JSONObjectView(text)["p"] == .string("68901.23"))
    #expect(try JSONValue.parse(Data(text.utf8))["p"] == .string("68901.23"))
  }

  @Test func view_matchesAKeyWrittenWithAnEscape() throws {
    let view = try JSONObjectView(#"{"\u0070":"68901.23","pp":"0"}"#)

    #expect(view["p"] == .string("68901.23"))
    #expect(view["\\u0070"] == nil)
  }

  @Test func view_givesOnlyTheOutermostObjectsMembers() throws {
    let view = try JSONObjectView(#"{"data":{"price":"1"},"list":[{"price":"2"}]}"#)

    #expect(view["price"] == nil)
    #expect(view["data"]?["price"] == .string("1"))
  }

  @Test func view_refusesNestingDeeperThanTheLimit() {
    let deep =
      "{\"a\":" + String(repeating: "[", count: 32) + String(repeating: "]", count: 32) + "}"
    let limit =
      "{\"a\":" + String(repeating: "[", count: 31) + String(repeating: "]", count: 31) + "}"

    #expect(verdict(ofView: deep) == "syntax")
    #expect(verdict(ofView: limit) == "object")
  }

  private func verdict(ofFullParse text: String) -> String {
    guard let json = try? JSONValue.parse(Data(text.utf8)) else { return "syntax" }
    return json.objectValue == nil ? "notAnObject" : "object"
  }

  private func verdict(ofView text: String) -> String {
    do {
      _ = try JSONObjectView(text)
      return "object"
    } catch .syntax {
      return "syntax"
    } catch {
      return "notAnObject"
    }
  }
}
