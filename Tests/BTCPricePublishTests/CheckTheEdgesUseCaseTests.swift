import BTCPricePublish
import BTCPriceServer
import BTCPriceTestSupport
import Foundation
import Testing

@Suite(
  "Check the edges a publisher would publish to", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct CheckTheEdgesUseCaseTests {
  @Test func verdict_wordsEachAnswerForThePublisher() {
    let info = Data(#"{"messages": 1, "last_message_id": "1795608567:3" }"#.utf8)
    #expect(
      EdgeProbe.verdict(status: 200, body: info) == "takes publishes; newest message 1795608567:3")
    #expect(EdgeProbe.verdict(status: 200, body: Data()) == "takes publishes; no message yet")
    #expect(
      EdgeProbe.verdict(status: 404, body: Data()).hasPrefix("takes publishes; no message yet"))
    #expect(
      EdgeProbe.verdict(status: 401, body: Data())
        == "HTTP 401: the URL's user name and password are missing or wrong")
    #expect(
      EdgeProbe.verdict(status: 405, body: Data())
        == "HTTP 405: not an nchan publisher location (check the URL's path)")
    #expect(
      EdgeProbe.verdict(status: 503, body: Data())
        == "HTTP 503: the edge cannot publish now (is its Redis up?)")
  }

  /// Where each kind of answer begins and ends: only 2xx takes publishes (an nchan publisher
  /// answers 200 or 202), 403 is the credentials as 401 is, 404 alone may be a channel not made
  /// yet, the rest of 4xx is a wrong location, and anything else is the edge itself.
  @Test func verdict_atTheEdgesOfEachKindOfAnswer() {
    let newest = Data(#"{"last_message_id": "7:0"}"#.utf8)
    let takes = "takes publishes; newest message 7:0"
    #expect(EdgeProbe.verdict(status: 200, body: newest) == takes)
    #expect(EdgeProbe.verdict(status: 299, body: newest) == takes)
    for status in [199, 300, 399, 500] {
      #expect(
        EdgeProbe.verdict(status: status, body: newest)
          == "HTTP \(status): the edge cannot publish now (is its Redis up?)")
    }
    #expect(
      EdgeProbe.verdict(status: 403, body: Data())
        == "HTTP 403: the URL's user name and password are missing or wrong")
    for status in [400, 402, 405, 499] {
      #expect(
        EdgeProbe.verdict(status: status, body: Data())
          == "HTTP \(status): not an nchan publisher location (check the URL's path)")
    }
  }

  @Test func check_asksTheStreamChannelWithTheCredentials_withinItsTime() async throws {
    let client = StubHTTPClient(status: 200, body: #"{"last_message_id": "1:0"}"#)
    let verdict = await EdgeProbe.check(
      try PublishTarget("http://u:p@edge:8081/pub"), client: client, clock: SteppedTestClock(),
      timeout: .seconds(1))
    #expect(verdict == "takes publishes; newest message 1:0")
    #expect(client.requests.first?.url.absoluteString == "http://edge:8081/pub/stream")
    #expect(
      client.requests.first?.header("Authorization") == "Basic "
        + Data("u:p".utf8).base64EncodedString())
    #expect(client.requests.first?.body == nil)
    // nchan's channel info as JSON, and no more than a small document of it: an edge that
    // answers with megabytes is not read whole by `doctor`.
    #expect(client.requests.first?.header("Accept") == "text/json")
    #expect(client.requests.first?.maxBodySize == 4096)

    let clock = SteppedTestClock()
    let silent = try PublishTarget("http://edge/pub")
    async let hung = EdgeProbe.check(
      silent, client: StubHTTPClient.neverAnswering, clock: clock, timeout: .seconds(1))
    await clock.advance(to: .seconds(1), afterSleeps: 1)
    #expect(await hung == "no answer within 1 s")
  }
}
