import BTCPriceTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `serve --alert-webhook` with the built binary, a fake exchange moving the price and a real
/// receiver on 127.0.0.1.
extension BinaryEndToEndTests {
  @Suite("Serve alerts end to end", .serialized, .timeLimit(.minutes(2)), .hangLimit(.seconds(30)))
  struct ServeAlertsEndToEndTests {
    @Test func aReceiverThatIsDownThenBack_getsEveryAlertAfterItReturns() async throws {
      try await FakeExchangeServer.withRunning { server in
        // Two crossings of 100,000, re-armed in between by a price 0.5 % below it.
        await server.stub(
          .binance, .binance(price: "99000"), .binance(price: "100500"),
          .binance(price: "99000"), .binance(price: "100200"), .binance(price: "99000"))
        let port = try FakeExchangeServer.unusedPort()
        let (run, base) = try await serve(
          server, "--alert", "above:100000", "--alert-webhook", "http://127.0.0.1:\(port)/hook")
        defer { run.send(SIGKILL) }

        // Both alerts fire while nothing listens on the port.
        #expect(
          await server.waitForRequests(to: .binance, count: 5), "the price never moved")
        let receiver = try await WebhookReceiver.start(port: port)
        defer { Task { await receiver.stop() } }
        await eventually(
          within: .seconds(15), { receiver.requests.count >= 2 }, "\(run.stderrText)")

        let bodies = receiver.requests.map(\.body)
        #expect(receiver.requests.count == 2)
        #expect(receiver.requests.allSatisfy { $0.method == "POST" && $0.path == "/hook" })
        #expect(
          bodies.first?.contains(#""rule":"above:100000","direction":"up","price":"100500""#)
            == true)
        #expect(bodies.last?.contains(#""price":"100200""#) == true)
        #expect(run.stderrText.components(separatedBy: "cannot deliver to 127.0.0.1").count == 2)
        let metrics = try await get("\(base)/metrics")
        #expect(metrics.contains(#"btc_price_alert_webhook_total{outcome="delivered"} 2"#))
        #expect(!metrics.contains(#"btc_price_alert_webhook_total{outcome="failed"} 0"#))
      }
    }

    @Test func theTextFormat_publishesAsNtfyDoes() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "90500"), .binance(price: "89500"))
        let receiver = try await WebhookReceiver.start()
        defer { Task { await receiver.stop() } }
        let (run, _) = try await serve(
          server, "--alert", "below:90000", "--alert-webhook-format", "text", "--alert-webhook",
          "http://127.0.0.1:\(receiver.port)/btc-topic")
        defer { run.send(SIGKILL) }

        await eventually(within: .seconds(15), { !receiver.requests.isEmpty }, "\(run.stderrText)")

        let published = try #require(receiver.requests.first)
        #expect(published.body == "BTC below $90,000.00: $89,500.00")
        #expect(published.headers["title"] == "BTC below $90,000.00")
        #expect(published.headers["content-type"] == "text/plain; charset=utf-8")
      }
    }

    private func serve(_ server: FakeExchangeServer, _ extra: String...)
      async throws -> (BinaryProcess, String)
    {
      let run = try BinaryProcess(
        ["serve", "--port", "0", "--sources", "binance", "--no-cache", "--interval", "0.3"]
          + extra + server.urlArguments)
      guard await run.waitForLines(1), let address = run.serveAddress else {
        run.send(SIGKILL)
        throw ServeDidNotStart(stderr: run.stderrText)
      }
      return (run, address)
    }

    private func get(_ url: String) async throws -> String {
      try await fetch(url).body
    }

    private struct ServeDidNotStart: Error {
      let stderr: String
    }
  }
}
