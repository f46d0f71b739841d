import BTCPriceTestSupport
import Testing

@testable import BTCPriceServer

@Suite("Tag each answer by its bytes", .hangLimit(.seconds(30)))
struct TagEachAnswerByItsBytesTests {
  /// `/api/price`'s `ETag` is the body's 64-bit FNV-1a hash as 16 hexadecimal digits in quotes:
  /// the algorithm's published test vectors, and a body whose hash starts with zeros, kept.
  @Test(arguments: [
    ("", "cbf29ce484222325"), ("a", "af63dc4c8601ec8c"), ("foobar", "85944171f73967e8"),
    ("body 5180\n", "00cb77df7ed396e5"),
  ])
  func entityTag_isTheBodysFNV1a64InSixteenDigits(body: String, hash: String) {
    #expect(PriceServer.entityTag(body) == "\"\(hash)\"")
  }
}
