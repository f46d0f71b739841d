import BTCPriceNetworking
import BTCPriceTestSupport
import Foundation
import Testing

/// The built binary with its price history, against the fake exchange's candles: the 24-hour
/// change in `--json` and `--format`, absent without candles, and the candles asked once at the
/// start of a run, never per tick, and not again by a run right after.
extension BinaryEndToEndTests {
  @Suite(
    "btc-price with its price history", .serialized, .timeLimit(.minutes(2)),
    .hangLimit(.seconds(30)))
  final class HistoryEndToEndTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "btc-price-history-\(UUID().uuidString)")
    var cachePath: String { folder.appendingPathComponent("cache/last-price.json").path }

    deinit {
      try? FileManager.default.removeItem(at: folder)
    }

    @Test func json_carriesThe24HourChange_inExactDecimals() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))
        await server.stubCandles(.binance, .binanceDay(flatAt: "68000.00"))

        let run = try run(server, "--once", "--json")

        #expect(await run.waitForExit() == 0)
        let line = try #require(run.stdoutText.first)
        let match = try #require(
          line.firstMatch(
            of: #/,"change24h":\{"absolute":"901.23","percent":"1.33","since":"([^"]+)"\}/#))
        let since = try #require(ISO8601DateFormatter().date(from: String(match.1)))
        // The price a day before, within the quarter of an hour the figure may be off by.
        #expect(abs(Date().timeIntervalSince(since) - 86_400) < 16 * 60)
        #expect(run.stderrText.isEmpty)
        let asked = await server.candleRequests(to: .binance)
        #expect(asked.map(\.path) == ["/api/v3/klines"])
        #expect(asked.first?.query == "symbol=BTCUSDT&interval=5m&limit=290")
      }
    }

    @Test func withoutCandles_theChangeIsAbsent_notZero() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))

        let run = try run(server, "--once", "--json")
        let formatted = try self.run(server, "--once", "--format", "{price} [{change_24h}]")

        #expect(await run.waitForExit() == 0)
        #expect(await formatted.waitForExit() == 0)
        #expect(run.stdoutText.count == 1)
        #expect(run.stdoutText.first?.contains("change24h") == false)
        #expect(formatted.stdoutText == ["$68,901.23 []"])
        #expect(await server.candleRequests(to: .binance).count >= 1)
      }
    }

    @Test func format_showsThe24HourChangeAndItsPercent() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "67000.00"))
        await server.stubCandles(.binance, .binanceDay(flatAt: "68000.00"))

        let run = try run(server, "--once", "--format", "{price} {change_24h} {change_24h_pct}")

        #expect(await run.waitForExit() == 0)
        #expect(run.stdoutText == ["$67,000.00 -$1,000.00 -1.47%"])
      }
    }

    /// A minute of ticks at the default interval (60 ticks, here 0.2 s apart) asks for the
    /// day's candles once, at the start; a run right after asks for none (the kept history is
    /// younger than its refresh interval, 15 minutes).
    @Test func aMinuteOfTicks_asksForTheCandlesOnce_andARunRightAfterNotAtAll() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))
        await server.stubCandles(.binance, .binanceDay(flatAt: "68000.00"))

        let ticks = try run(server, "--json", "--interval", "0.2", "--count", "60")
        #expect(await ticks.waitForExit(timeout: .seconds(60)) == 0)
        let after = try run(server, "--once", "--json")
        #expect(await after.waitForExit() == 0)

        #expect(ticks.stdoutText.count == 60)
        #expect(ticks.stdoutText.allSatisfy { $0.contains(#""change24h":{"absolute":"901.23""#) })
        #expect(after.stdoutText.first?.contains(#""change24h":{"absolute":"901.23""#) == true)
        #expect(await server.candleRequests(to: .binance).count == 1)
        #expect(await server.requests(to: .binance).count == 61)
      }
    }

    /// The binary against the fake, Binance alone, with its history on (the tests' environment
    /// turns it off) and its cache in this suite's folder.
    private func run(_ server: FakeExchangeServer, _ arguments: String...) throws -> BinaryProcess {
      try BinaryProcess(
        ["--primary-timeout", "3", "--sources", "binance", "--history", "--cache-path", cachePath]
          + server.urlArguments + arguments,
        environment: ["TZ": "UTC"])
    }
  }
}
