import BTCPriceCore
import BTCPriceFeature
import BTCPriceRuntime
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

@testable import BTCPriceAlerts

/// `serve --alert-webhook`: each alert as a POST, JSON or ntfy's text; failures counted, and said
/// once per outage.
@Suite("Deliver alerts to the webhook", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct DeliverAlertsToTheWebhookUseCaseTests {
  let url = URL(string: "http://127.0.0.1:9/hook")!

  @Test func theJSONBody_namesEveryFieldOfTheAlert() throws {
    let request = AlertWebhook(url: url, format: .json).request(for: try item())

    #expect(request.url == url)
    #expect(request.header("Content-Type") == "application/json")
    #expect(
      request.body.map { String(decoding: $0, as: UTF8.self) }
        == #"{"rule":"above:100000","direction":"up","price":"100500","currency":"USD","#
        + #""time":"2026-11-22T14:03:05Z","source":"binance","text":"BTC above $100,000.00: "#
        + #"$100,500.00"}"#)
  }

  @Test func theTextBody_isTheSentence_withNtfysTitleAndTag() throws {
    let request = AlertWebhook(url: url, format: .text).request(for: try item())

    #expect(request.header("Content-Type") == "text/plain; charset=utf-8")
    #expect(request.header("Title") == "BTC above $100,000.00")
    #expect(request.header("Tags") == "chart_with_upwards_trend")
    #expect(
      request.body.map { String(decoding: $0, as: UTF8.self) }
        == "BTC above $100,000.00: $100,500.00")
    #expect(
      AlertWebhook(url: url, format: .text).request(for: try item(.down)).header("Tags")
        == "chart_with_downwards_trend")
  }

  @Test func aDeliveredAlert_isCounted() async throws {
    let client = StubHTTPClient(status: 204, body: "")
    let outcomes = Locked<[String]>([])
    let sut = makeSUT(client, outcomes: outcomes)
    let running = Task { await sut.run() }

    sut.deliver(try DeliverAlertsUseCaseTests().alerts(("above:100000", .up, "100500")))
    await waitUntil({ outcomes.value == ["delivered"] })

    #expect(client.requests.count == 1)
    running.cancel()
  }

  @Test func aRefusedAlert_isCountedAsFailed_andTheOutageSaidOnce() async throws {
    let outcomes = Locked<[String]>([])
    let warnings = Locked<[String]>([])
    let sut = makeSUT(StubHTTPClient(status: 503, body: ""), outcomes: outcomes, warnings: warnings)
    let running = Task { await sut.run() }

    sut.deliver(try DeliverAlertsUseCaseTests().alerts(("above:100000", .up, "100500")))
    // The failure is counted, then said: wait for both, not the first alone.
    await waitUntil({ outcomes.value == ["failed"] && !warnings.value.isEmpty })

    #expect(warnings.value == ["--alert-webhook: cannot deliver to 127.0.0.1: HTTP 503; retrying"])
    #expect(
      AlertWebhook(url: url, format: .json).warning(for: .receiverBack)
        == "--alert-webhook: 127.0.0.1 is back; delivering the queued alerts")
    #expect(AlertWebhook.outcome(of: .dropped) == "dropped")
    running.cancel()
  }

  /// Delivered means any 2xx, from 200 to 299; a 1xx or a 3xx (a redirect we do not follow) is
  /// not delivered. Each bound both ways.
  @Test(arguments: [(199, false), (200, true), (299, true), (300, false)])
  func aStatus_isDeliveredExactlyWhenItIsTwoHundredSomething(status: Int, delivered: Bool)
    async throws
  {
    let webhook = AlertWebhook(url: url, format: .json)
    let client = StubHTTPClient(status: status, body: "")

    let sent: Bool
    do {
      try await webhook.send(try item(), through: client)
      sent = true
    } catch {
      #expect("\(error)" == "HTTP \(status)")
      sent = false
    }

    #expect(sent == delivered)
  }

  // MARK: - Helpers

  private func makeSUT(
    _ client: StubHTTPClient, outcomes: Locked<[String]>,
    warnings: Locked<[String]> = Locked([])
  ) -> AlertDeliveries {
    AlertDeliveries(
      command: nil, notifier: nil, launcher: LauncherSpy(),
      webhook: AlertWebhook(url: url, format: .json), client: client, clock: SteppedTestClock(),
      warn: { warnings.append($0) }, onWebhookOutcome: { outcomes.append($0) })
  }

  private func item(_ direction: PriceAlert.Direction = .up) throws -> AlertViewState.Item {
    try #require(
      DeliverAlertsUseCaseTests().alerts(("above:100000", direction, "100500")).items.first)
  }
}
