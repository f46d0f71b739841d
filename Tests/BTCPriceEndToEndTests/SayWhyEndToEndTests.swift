import BTCPriceTestSupport
import Foundation
import Testing

/// "Say why, once" with the built binary: one warning when no source gives a price, naming the
/// common reason, and one line when prices come back.
extension BinaryEndToEndTests {
  @Suite(
    "btc-price says why no price comes", .serialized, .timeLimit(.minutes(2)),
    .hangLimit(.seconds(30)))
  struct SayWhyEndToEndTests {
    @Test func offline_everyHostNotFound_warnsOnceNamingIt() async throws {
      let run = try BinaryProcess(
        base + [
          "--count", "5", "--binance-url", "http://exchange.invalid/api/v3/ticker/price",
          "--kraken-url", "http://exchange.invalid/0/public/Ticker",
        ])
      _ = await run.waitForExit()

      let warnings = run.stderrText.split(separator: "\n").filter { $0.contains("no source has") }
      #expect(
        warnings == [
          "btc-price: warning: no source has given a price for 3 ticks: no source's host name"
            + " could be found — is this machine offline? Behind a company firewall, set --proxy"
            + " (or $https_proxy)"
        ], "\(run.stderrText)")
    }

    @Test func tlsFailureForEverySource_isNamed() async throws {
      try await FakeExchangeServer.withRunning { server in
        let run = try BinaryProcess(
          base + [
            "--once", "--interval", "5",
            "--binance-url", "https://localhost:\(server.port)/api/v3/ticker/price",
            "--kraken-url", "https://localhost:\(server.port)/0/public/Ticker",
          ])
        _ = await run.waitForExit()

        #expect(
          run.stderrText.contains(
            "no source has given a price: every source failed TLS: the server did not answer in"
              + " TLS"), "\(run.stderrText)")
      }
    }

    @Test func pricesComingBack_saySoOnce() async throws {
      try await FakeExchangeServer.withRunning { server in
        let down = FakeResponse(status: 503, json: "{}")
        await server.stub(.binance, down, down, down, .binance(price: "68901.23"))
        // Three failures open binance's circuit for 5 s: the probe after it gets the price.
        let run = try BinaryProcess(
          base + [
            "--interval", "0.5", "--count", "14", "--sources", "binance", "--binance-url",
            server.url(for: .binance).absoluteString,
          ])
        _ = await run.waitForExit(timeout: .seconds(30))

        let lines = run.stderrText.split(separator: "\n")
        #expect(lines.filter { $0.contains("no source has given a price") }.count == 1)
        #expect(
          lines.filter { $0 == "btc-price: warning: prices are back (from binance)" }.count == 1,
          "\(run.stderrText)")
      }
    }

    @Test func json_carriesTheReasonInItsRecord() async throws {
      let run = try BinaryProcess(
        base + [
          "--once", "--json", "--binance-url", "http://exchange.invalid/api/v3/ticker/price",
          "--kraken-url", "http://exchange.invalid/0/public/Ticker",
        ])
      _ = await run.waitForExit()

      let line = try #require(run.stdoutText.first)
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      #expect((object["reason"] as? String)?.hasPrefix("no source's host name") == true, "\(line)")
    }

    @Test func serve_saysWhyOnceOnStderr() async throws {
      let run = try BinaryProcess(
        ["serve", "--port", "0"] + base + [
          "--binance-url", "http://exchange.invalid/api/v3/ticker/price",
          "--kraken-url", "http://exchange.invalid/0/public/Ticker",
        ])
      // Three failed ticks first: a process's pace, so a deadline on the wall clock.
      let deadline = ContinuousClock.now + .seconds(20)
      while !run.stderrText.contains("no source has given a price"), ContinuousClock.now < deadline
      {
        try await Task.sleep(for: .milliseconds(50))
      }
      run.send(SIGTERM)
      _ = await run.waitForExit()

      #expect(
        run.stderrText.components(separatedBy: "no source has given a price").count == 2,
        "\(run.stderrText)")
      #expect(run.stderrText.contains("no source's host name could be found"))
    }

    private var base: [String] {
      // Ticks long enough that a loaded machine does not turn a quick failure into a timeout.
      ["--no-cache", "--interval", "0.3", "--primary-timeout", "3", "--sources", "binance,kraken"]
    }
  }
}
