import BTCPriceServer
import BTCPriceTestSupport
import Foundation
import Testing

@Suite(
  "Check the edges a publisher would publish to", .timeLimit(.minutes(1)), .hangLimit(.seconds(10)))
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

    let clock = SteppedTestClock()
    let silent = try PublishTarget("http://edge/pub")
    async let hung = EdgeProbe.check(
      silent, client: StubHTTPClient.neverAnswering, clock: clock, timeout: .seconds(1))
    await clock.advance(to: .seconds(1), afterSleeps: 1)
    #expect(await hung == "no answer within 1 s")
  }
}
