import BTCPriceCore
import BTCPriceFeature
import BTCPricePersistence
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
        // --json carries every period's change: the day's, the week's and the month's candles,
        // once each.
        let asked = await server.candleRequests(to: .binance)
        #expect(asked.map(\.path) == Array(repeating: "/api/v3/klines", count: 3))
        #expect(asked.first?.query == "symbol=BTCUSDT&interval=5m&limit=290")
        #expect(asked.map { $0.query?.contains("interval=1h") == true } == [false, true, false])
        #expect(asked.last?.query?.contains("interval=6h") == true)
      }
    }

    /// serve's `/api/price` is the `--json` line: the 24-hour change included, in the same
    /// exact decimals, once the day's candles have come.
    @Test func serve_apiPrice_carriesThe24HourChange_asTheJSONLineDoes() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))
        await server.stubCandles(.binance, .binanceDay(flatAt: "68000.00"))
        let serve = try BinaryProcess(
          [
            "serve", "--port", "0", "--interval", "0.5", "--sources", "binance", "--no-cache",
            "--history",
          ]
            + server.urlArguments, environment: ["TZ": "UTC"])
        defer { serve.send(SIGKILL) }
        #expect(await serve.waitForLines(1))
        let address = try #require(serve.serveAddress, "\(serve.stdoutText) \(serve.stderrText)")

        let body = try await apiPrice(at: address) { $0.contains("change24h") }

        #expect(body.contains(#","change24h":{"absolute":"901.23","percent":"1.33","since":"#))
        #expect(body.hasPrefix("{") && body.hasSuffix("}\n"), "one JSON line: \(body)")
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

    /// A minute of ticks at the default interval (60 ticks, here 0.2 s apart) asks for each
    /// range's candles once, at the start (--json shows every period's change: the day's, the
    /// week's and the month's); a run right after asks for none (the kept history is younger
    /// than its refresh interval, 15 minutes and an hour).
    @Test func aMinuteOfTicks_asksForTheCandlesOnce_andARunRightAfterNotAtAll() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))
        await server.stubCandles(
          .binance, .binanceRange(.day, flatAt: "68000.00"),
          .binanceRange(.week, flatAt: "60000.00"), .binanceRange(.month, flatAt: "50000.00"))

        let ticks = try run(server, "--json", "--interval", "0.2", "--count", "60")
        #expect(await ticks.waitForExit(timeout: .seconds(60)) == 0)
        let after = try run(server, "--once", "--json")
        #expect(await after.waitForExit() == 0)

        #expect(ticks.stdoutText.count == 60)
        #expect(ticks.stdoutText.allSatisfy { $0.contains(#""change24h":{"absolute":"901.23""#) })
        #expect(after.stdoutText.first?.contains(#""change24h":{"absolute":"901.23""#) == true)
        let asked = await server.candleRequests(to: .binance).compactMap(\.query)
        #expect(asked.count == 3, "\(asked)")
        let last = try #require(ticks.stdoutText.last)
        #expect(last.contains(#""7d":{"absolute":"8901.23","percent":"14.84","#), "\(last)")
        #expect(last.contains(#""30d":{"absolute":"18901.23","percent":"37.80","#), "\(last)")
        #expect(await server.requests(to: .binance).count == 61)
      }
    }

    // MARK: btc-price chart

    /// 2026-11-22 13:55 UTC: the last of the known candles opens here.
    static let lastStart = 1_795_355_700
    /// A V: $69,450.00 a day before, $68,000.00 at 01:55, back to $69,440.00.
    static let vShape = (0..<290).map { "\(68_000 + abs($0 - 145) * 10).00" }

    @Test func chart_printsTheKnownCandles_sizedByColumnsAndLines_inPlainCharacters() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stubCandles(
          .binance, .binanceKlines(Self.vShape, lastStart: Self.lastStart))

        let run = try BinaryProcess(
          ["chart", "--sources", "binance", "--cache-path", cachePath] + server.urlArguments,
          environment: ["TZ": "UTC", "COLUMNS": "60", "LINES": "10"])

        #expect(await run.waitForExit() == 0)
        #expect(
          run.stdoutText == [
            "BTC/USD, last 24 hours · Binance",
            "$69,440.00 ***                                           ***",
            "             ******                                 ******  ",
            "                  ******                       ******       ",
            "                       ******             ******            ",
            "                            ******   ******                 ",
            "$68,000.00                       *****                      ",
            "                   18:00       00:00       06:00       12:00",
            "▲ +$10.00 (+0.01%) in 24 hours",
          ])
        #expect(run.stderrText.isEmpty)
        #expect(await server.candleRequests(to: .binance).count == 1)
      }
    }

    /// `chart --json` and `--csv`: the day's candles for other tools, one per line, oldest
    /// first, in the exchange's exact decimals (Binance writes them with 8).
    @Test func chart_json_andCSV_printTheCandles() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stubCandles(
          .binance, .binanceKlines(Self.vShape, lastStart: Self.lastStart))
        let chart = ["chart", "--sources", "binance", "--cache-path", cachePath]

        let json = try BinaryProcess(chart + ["--json"] + server.urlArguments)
        #expect(await json.waitForExit() == 0)
        let csv = try BinaryProcess(chart + ["--csv"] + server.urlArguments)
        #expect(await csv.waitForExit() == 0)

        #expect(json.stdoutText.count == 288, "\(json.stdoutText.prefix(2))")
        #expect(
          json.stdoutText.last
            == #"{"time":"2026-11-22T13:55:00Z","open":"69440","high":"69440","low":"69440","#
            + #""close":"69440"}"#)
        #expect(csv.stdoutText.first == "time,open,high,low,close")
        #expect(csv.stdoutText.count == 289)
        #expect(csv.stdoutText.last == "2026-11-22T13:55:00Z,69440,69440,69440,69440")
        #expect(json.stderrText.isEmpty && csv.stderrText.isEmpty)
        let both = try BinaryProcess(chart + ["--json", "--csv"] + server.urlArguments)
        #expect(await both.waitForExit() == 64)
      }
    }

    /// Into a pipe whose reader leaves, `chart --csv` ends as every output does (141); into a
    /// full disk it says so and exits 74.
    @Test func chart_csv_inAClosedPipe_orAFullDisk_endsAsEveryOutputDoes() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stubCandles(
          .binance, .binanceKlines(Self.vShape, lastStart: Self.lastStart))
        let arguments =
          ["chart", "--csv", "--sources", "binance", "--cache-path", cachePath]
          + server.urlArguments

        // The reader leaves before a line is written (`head` could find all of them already in
        // the pipe, 15 KB, and leave the writer none the wiser).
        let piped = try BinaryProcess.shell(
          #""$BTC_PRICE" "$@" | (exec 0<&-; sleep 0.5); echo "status=${PIPESTATUS[0]}""#,
          arguments: arguments)
        #expect(await piped.waitForExit(timeout: .seconds(20)) == 0)
        #expect(piped.stdoutText == ["status=141"])
        #expect(piped.stderrText.isEmpty, "\(piped.stderrText)")

        if let full = FileHandle(forWritingAtPath: "/dev/full") {
          let run = try BinaryProcess(arguments, stdout: full)
          #expect(await run.waitForExit() == 74)
          #expect(
            run.stderrText == "btc-price: error: cannot write to stdout: No space left on device\n")
        }
      }
    }

    /// Offline with the day kept from three hours ago: the kept day is drawn with its age, the
    /// failure said once, and the status is 1, as `--once`'s after a failed tick.
    @Test func chart_offline_printsTheKeptDayWithItsAge() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stubCandles(.binance, FakeResponse(status: 503, json: "{}"))
        let fetchedAt = Date().addingTimeInterval(-3 * 3_600)
        let store = FileCandleStore(
          besidePriceFile: URL(fileURLWithPath: cachePath),
          knownSources: PriceSourceRegistry.sources, currency: .usd)
        let day = (0..<290).map { index in
          Candle.flat(
            TimeInterval(Self.lastStart - 300 * (289 - index)), Self.vShape[index])
        }
        try store.save(
          CandleSeries(
            currency: .usd, period: .seconds(300), candles: day, source: .binance,
            fetchedAt: fetchedAt), for: .day)

        let run = try BinaryProcess(
          ["chart", "--sources", "binance", "--cache-path", cachePath] + server.urlArguments,
          environment: ["TZ": "UTC", "COLUMNS": "60", "LINES": "10"])

        #expect(await run.waitForExit() == 1)
        let age = TimestampFormatter.utc(precision: .minutes).format(fetchedAt)
        #expect(run.stdoutText.first == "BTC/USD, last 24 hours · Binance  as of \(age)")
        #expect(run.stdoutText.count == 9)
        #expect(run.stdoutText.last == "▲ +$10.00 (+0.01%) in 24 hours")
        #expect(
          run.stderrText
            == "btc-price: warning: Failed to update the price history (binance: HTTP 503); "
            + "showing it as of \(age)\n")
      }
    }

    @Test func aSlowCandleEndpoint_holdsUpOnlyTheOutputsThatShowTheDay() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))
        await server.stubCandles(.binance, .hang)

        // Started together: `--json` shows the day, so its first tick waits for the history
        // (a bounded 2 s); the plain line does not, and is printed and done long before.
        let json = try run(server, "--once", "--json")
        let plain = try BinaryProcess(
          [
            "--primary-timeout", "3", "--sources", "binance", "--history", "--cache-path",
            folder.appendingPathComponent("plain/last-price.json").path, "--once",
          ]
            + server.urlArguments,
          environment: ["TZ": "UTC"])

        #expect(await plain.waitForExit() == 0)
        #expect(json.isRunning, "the plain line waited for the history as --json does")
        #expect(plain.stdoutText.count == 1)
        #expect(plain.stdoutText.first?.hasSuffix(" - $68,901.23") == true)
        #expect(await json.waitForExit() == 0)
        #expect(json.stdoutText.first?.contains("change24h") == false)
      }
    }

    /// A one-shot whose output shows no change reads no history and asks for no candles: a
    /// status bar's plain `--once` pays only for the price. One that shows the change does both.
    @Test func aPlainOneShot_asksForNoCandles_andOneThatShowsTheChangeDoes() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))
        await server.stubCandles(.binance, .binanceDay(flatAt: "68000.00"))

        for arguments in [["--once"], ["--once", "--format", "{price}"], ["--count", "1"]] {
          let plain = try BinaryProcess(
            [
              "--primary-timeout", "3", "--sources", "binance", "--history", "--cache-path",
              folder.appendingPathComponent("plain/last-price.json").path,
            ]
              + server.urlArguments + arguments,
            environment: ["TZ": "UTC"])
          #expect(await plain.waitForExit() == 0)
          #expect(plain.stdoutText.first?.hasSuffix("68,901.23") == true, "\(plain.stdoutText)")
        }
        #expect(await server.candleRequests(to: .binance).isEmpty)

        let shown = try run(server, "--once", "--format", "{price} {change_24h_pct}")
        #expect(await shown.waitForExit() == 0)
        #expect(shown.stdoutText == ["$68,901.23 +1.33%"])
        #expect(await server.candleRequests(to: .binance).count == 1)
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
