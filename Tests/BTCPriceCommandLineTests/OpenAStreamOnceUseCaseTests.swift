import BTCPriceCommandLine
import BTCPriceCore
import BTCPriceSources
import BTCPriceTerminal
import BTCPriceTestSupport
import Foundation
import Testing

/// `doctor`'s look at a stream: opened once, as the ticks open it, until its first message, its
/// end, or a limit.
@Suite("Open a stream once", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct OpenAStreamOnceUseCaseTests {
  let endpoint = try! PriceSourceDefinition.coinbase.streamEndpoint(for: .usd)

  @Test func theFirstMessage_endsTheCheck() async {
    let connector = TestWebSocketConnector(greetings: [
      "ws-feed.exchange.coinbase.com": [FakeStreamMessage.coinbaseTicker(price: "68880.55")]
    ])

    let check = await makeSUT(connector).check(endpoint)

    #expect(check.verdict == "first message: a trade at 68880.55")
    #expect(check.route == "direct")
    #expect(connector.openHosts.isEmpty, "the connection stays open after the check")
  }

  @Test func anEndBeforeAnyMessage_isTheFailure_atTheStepItReached() async {
    let refused = ScriptedConnector(scripts: [
      .init(messages: [], then: .end(.handshakeFailed(status: 451, reason: "refused")))
    ])

    let check = await makeSUT(refused).check(endpoint)

    #expect(check.failedStep == .upgrade)
    #expect(check.verdict.hasPrefix("failed at upgrade: "))
  }

  @Test func silence_isAFailureAfterTheLimit_onTheClock() async {
    let clock = SteppedTestClock()
    let sut = StreamProbe(
      proxies: ProxySelector(explicit: nil, environment: [:]), limit: .seconds(10), clock: clock
    ) {
      onUpgrade in
      onUpgrade()
      return ScriptedConnector(scripts: [.init(messages: [], then: .waitForCancellation)])
    }

    let checking = Task { await sut.check(endpoint) }
    await clock.advance(to: .seconds(10), afterSleeps: 1)
    let check = await checking.value

    #expect(check.outcome == .failed(.silent(after: .seconds(10)), upgraded: true))
    #expect(check.latency == .seconds(10))
  }

  private func makeSUT(_ connector: any WebSocketConnector) -> StreamProbe {
    StreamProbe(proxies: ProxySelector(explicit: nil, environment: [:]), limit: .seconds(5)) { _ in
      connector
    }
  }
}
