import BTCPriceCore
import BTCPriceTerminal
import BTCPriceTestSupport
import Foundation
import Testing

/// `doctor`'s stream check: how far opening the primary's stream got, placed on its steps, and
/// why it failed in words; shown in both renderings without changing the exit status.
@Suite("Diagnose the streams the ticks read", .hangLimit(.seconds(30)))
struct DiagnoseTheStreamUseCaseTests {
  @Test func firstTrade_passesEveryStep() {
    let check = makeSUT(.message(.trade(Decimal(string: "68901.23")!)))

    #expect(check.steps.map(\.state) == [.notApplicable, .ok, .ok, .ok, .ok])
    #expect(check.verdict == "first message: a trade at 68901.23")
    #expect(check.advice == nil)
  }

  @Test(arguments: [
    (
      PriceStreamError.unreachable("cannot reach the proxy http://p:1: it refused the connection"),
      false, DoctorStreamCheck.Step.proxy
    ),
    (PriceStreamError.unreachable("connection refused"), false, .connect),
    (PriceStreamError.unreachable("TLS failure: certificate verify failed"), false, .tls),
    (PriceStreamError.handshakeFailed(status: 451, reason: "refused"), false, .upgrade),
    (PriceStreamError.silent(after: .seconds(10)), false, .upgrade),
    (PriceStreamError.silent(after: .seconds(10)), true, .message),
    (PriceStreamError.subscriptionRefused("no such product"), true, .message),
  ])
  func failure_isPlacedOnItsStep(
    error: PriceStreamError, upgraded: Bool, step: DoctorStreamCheck.Step
  ) {
    let check = makeSUT(
      .failed(error, upgraded: upgraded), route: "through http://p:1 (from $https_proxy)")

    #expect(check.failedStep == step)
    #expect(check.steps.first { $0.step == step }?.state == .failed)
    #expect(check.verdict.hasPrefix("failed at \(step.rawValue): "))
  }

  @Test func eachFailure_saysWhyInWords() {
    func advice(_ error: PriceStreamError, upgraded: Bool = false) -> String {
      makeSUT(.failed(error, upgraded: upgraded)).advice ?? ""
    }
    #expect(
      advice(.handshakeFailed(status: 451, reason: "x")).contains("refuses this location (451)"))
    for limited in [418, 429] {
      #expect(
        advice(.handshakeFailed(status: limited, reason: "x"))
          .contains("limits this address (\(limited)); the tool does not reconnect before"))
    }
    for refused in [401, 403] {
      #expect(
        advice(.handshakeFailed(status: refused, reason: "x"))
          .hasPrefix("the stream was refused (\(refused)): a firewall or the exchange blocks it"))
    }
    #expect(
      advice(.handshakeFailed(status: 404, reason: "x"))
        .hasPrefix("the server answered but did not upgrade to WebSocket"))
    #expect(
      advice(.handshakeFailed(status: nil, reason: "x")).contains("does not pass WebSockets"))
    #expect(advice(.silent(after: .seconds(10))).contains("no answer to the upgrade"))
    #expect(advice(.silent(after: .seconds(10)), upgraded: true).contains("nothing arrived"))
    #expect(advice(.unreachable("TLS failure: x")).contains("--ca-file"))
    #expect(advice(.unreachable("host not found")).contains("--proxy"))
  }

  @Test func report_showsEachStreamInTextAndJSON_inTheTicksOrder_withoutChangingTheExitStatus()
    throws
  {
    let primary = makeSUT(
      .failed(.handshakeFailed(status: 451, reason: "refused"), upgraded: false),
      latency: .milliseconds(35))
    let crossCheck = DoctorStreamCheck(
      source: "coinbase", url: "wss://ws-feed.exchange.coinbase.com", route: "direct",
      outcome: .message(.trade(Decimal(string: "68871.5")!)), latency: .milliseconds(120))
    let report = DoctorReport(
      checks: [
        DoctorCheck(
          source: "kraken", url: "https://api.kraken.com/x", route: "direct",
          outcome: .price(
            PriceQuote(
              value: 68870, timestamp: Date(timeIntervalSince1970: 0),
              source: PriceSource(id: "kraken", displayName: "Kraken"))),
          latency: .milliseconds(40))
      ], streams: [primary, crossCheck], settings: [], files: [], limits: [])

    #expect(report.exitStatus == 0)
    let text = report.text
    #expect(text.contains("Streams the ticks read, each opened once:"))
    #expect(text.contains("  binance (wss://data-stream.binance.vision/ws/btcusdt@trade), direct"))
    #expect(text.contains("proxy n/a, connect ok, tls ok, upgrade failed, message -"))
    #expect(text.contains("failed at upgrade: upgrade refused: HTTP 451 refused in 35 ms"))
    #expect(text.contains("first message: a trade at 68871.5 in 120 ms"))
    let binance = try #require(text.range(of: "  binance (wss:"))
    let coinbase = try #require(text.range(of: "  coinbase (wss:"))
    #expect(binance.lowerBound < coinbase.lowerBound, "primary first")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
    let json = try #require(object["streams"] as? [[String: Any]])
    #expect(json.map { $0["source"] as? String } == ["binance", "coinbase"])
    #expect((json.first?["steps"] as? [String: String])?["upgrade"] == "failed")
    #expect(json.first?["latencyMilliseconds"] as? Int == 35)
    #expect((json.last?["steps"] as? [String: String])?["message"] == "ok")
  }

  @Test func report_withoutStreams_hasNoStreamSection() {
    let report = DoctorReport(checks: [], settings: [], files: [], limits: [])

    #expect(!report.text.contains("Streams"))
    #expect(report.json.contains(#""streams":[]"#))
  }

  private func makeSUT(
    _ outcome: DoctorStreamCheck.Outcome, route: String = "direct",
    latency: Duration? = .milliseconds(120)
  ) -> DoctorStreamCheck {
    DoctorStreamCheck(
      source: "binance", url: "wss://data-stream.binance.vision/ws/btcusdt@trade", route: route,
      outcome: outcome, latency: latency)
  }
}
