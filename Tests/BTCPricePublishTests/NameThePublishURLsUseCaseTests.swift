import BTCPricePublish
import BTCPriceServer
import BTCPriceTestSupport
import Foundation
import Testing

@Suite(
  "Name the edges a publisher publishes to", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct NameThePublishURLsUseCaseTests {
  @Test func credentials_leaveTheURL_forABasicHeader_andAreNeverShown() throws {
    let sut = try PublishTarget("https://pub%40lisher:p%3Ass@edge.example/pub/")

    #expect(sut.base.absoluteString == "https://edge.example/pub")
    #expect(sut.authorization == "Basic " + Data("pub@lisher:p:ss".utf8).base64EncodedString())
    #expect(sut.redacted == "https://***@edge.example:443/pub")
    #expect("\(sut)" == sut.redacted)
  }

  @Test func redacted_hidesTheQuery_whichMayHoldAToken_andNamesThePort() throws {
    #expect(
      try PublishTarget("http://127.0.0.1:8081/pub?token=abc").redacted
        == "http://127.0.0.1:8081/pub?***")
    #expect(try PublishTarget("http://edge/pub").redacted == "http://edge:80/pub")
    #expect(try PublishTarget("http://[::1]:81/pub").redacted == "http://[::1]:81/pub")
    #expect(try PublishTarget("http://edge/pub").authorization == nil)
  }

  @Test func eachChannel_isAPathUnderTheBase_theQueryKept() throws {
    let sut = try PublishTarget("http://u:p@edge:8081/pub?token=abc")

    #expect(
      EdgeChannel.allCases.map { sut.url(for: $0).absoluteString } == [
        "http://edge:8081/pub/page?token=abc", "http://edge:8081/pub/price?token=abc",
        "http://edge:8081/pub/stream?token=abc",
      ])
  }

  @Test func aURLThatCannotBeUsed_isRefusedWithoutRepeatingIt() {
    for (text, reason) in [
      ("ftp://u:secret@edge/pub", "must start with http:// or https://"),
      ("edge:8081/pub", "must start with http:// or https://"),
      ("http:///pub", "names no host"),
      ("http://u:secret@edge/pub#x", "must not have a #fragment"),
    ] {
      #expect(throws: PublishTargetError(reason: reason), "\(text)") { try PublishTarget(text) }
      #expect(!"\(PublishTargetError(reason: reason))".contains("secret"))
    }
  }

  @Test func theURLs_comeFromTheCommandLine_elseFromTheEnvironment_whereNoPsShowsThem() {
    let environment = [
      PublishTarget.environmentVariable: "http://a/pub, http://b/pub\nhttp://c/pub"
    ]
    #expect(
      PublishTarget.urls(arguments: ["http://x/pub"], environment: environment) == ["http://x/pub"])
    #expect(
      PublishTarget.urls(arguments: [], environment: environment) == [
        "http://a/pub", "http://b/pub", "http://c/pub",
      ])
    #expect(PublishTarget.urls(arguments: [], environment: [:]) == [])
  }
}
