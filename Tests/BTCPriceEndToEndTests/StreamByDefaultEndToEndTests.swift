import BTCPriceCore
import BTCPriceRuntime
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The built binary with default settings (no `--stream`), against the fake exchange's REST side
/// and one fake stream server per exchange: the streams answer every tick with the last trade,
/// REST is asked only while no stream is alive, and `--no-stream` polls.
extension BinaryEndToEndTests {
  @Suite(
    "btc-price streams by default, REST only while no stream is alive", .serialized,
    .timeLimit(.minutes(2)), .hangLimit(.seconds(40)))
  struct StreamByDefaultEndToEndTests {
    static let restPrice = "70000.55"
    static let coinbasePrice = "70100.25"
    /// Empty is unset (Settings.fromEnvironment): the run gets the default, streams on, instead
    /// of the harness's `BTC_PRICE_STREAM=false`.
    static let defaultSettings = ["BTC_PRICE_STREAM": ""]

    /// Trades with a price of their own each (`71001.45`, `71002.45`, …), and when each was sent.
    final class TradeTape: Sendable {
      private let sent = Locked<[ContinuousClock.Instant]>([])

      /// 71,001.05, then ten cents more each trade (its last digit a 5, as `--json` writes it):
      /// within 2 % of every other price here, as two exchanges' prices are (a jump past that
      /// is confirmed before it is shown).
      static func price(_ index: Int) -> String { "\(71_001 + index / 10).\(index % 10)5" }

      /// Whether a `--json` line shows one of the tape's trades (no other price starts with 71).
      static func shows(_ line: String) -> Bool { line.contains(#""price":"71"#) }

      func next() -> String {
        let index = sent.withValue { sent in
          sent.append(.now)
          return sent.count - 1
        }
        return FakeStreamMessage.binanceTrade(price: Self.price(index))
      }

      var sentAt: [ContinuousClock.Instant] { sent.value }
    }

    /// Runs `body` with REST answering Binance and Coinbase, and a stream server for each.
    private func withExchange(
      _ body: (FakeExchangeServer, _ binance: FakeStreamServer, _ coinbase: FakeStreamServer)
        async throws -> Void
    ) async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: Self.restPrice))
        await server.stub(.coinbase, .coinbase(price: Self.restPrice))
        let binance = try await FakeStreamServer.start()
        let coinbase = try await FakeStreamServer.start()
        do {
          try await body(server, binance, coinbase)
        } catch {
          await binance.stop()
          await coinbase.stop()
          throw error
        }
        await binance.stop()
        await coinbase.stop()
      }
    }

    /// JSON lines, no cache, the given sources; each exchange's stream at its own fake server.
    private func arguments(
      _ extra: [String], sources: String = "binance", server: FakeExchangeServer,
      binance: FakeStreamServer, coinbase: FakeStreamServer
    ) -> [String] {
      ["--json", "--no-cache", "--sources", sources] + extra + server.urlArguments
        + [
          "--binance-stream-url", binance.url(path: "/ws/btcusdt@trade").absoluteString,
          "--coinbase-stream-url", coinbase.url(path: "/coinbase").absoluteString,
        ]
    }

    private func requests(_ server: FakeExchangeServer) async -> Int {
      await server.requests(to: .binance).count + server.requests(to: .coinbase).count
    }

    @Test func defaultSettings_30Ticks_eachShowsTheLastTradeBeforeIt_withoutARESTRequest()
      async throws
    {
      try await withExchange { server, binance, coinbase in
        let tape = TradeTape()
        binance.repeat({ tape.next() }, every: .milliseconds(300))

        let run = try BinaryProcess(
          arguments(
            ["--count", "30", "--interval", "0.1"], server: server, binance: binance,
            coinbase: coinbase),
          environment: Self.defaultSettings)

        #expect(await run.waitForExit() == 0)
        binance.stopRepeating()
        let lines = run.lines
        #expect(lines.count == 30)
        #expect(await requests(server) == 0)
        #expect(binance.connections == 1)
        #expect(run.stderrText.isEmpty, "\(run.stderrText)")
        let sentAt = tape.sentAt
        for line in lines {
          let shown = try #require(
            sentAt.indices.last { line.text.contains(#""price":"\#(TradeTape.price($0))""#) },
            "not a trade of the tape: \(line.text)")
          // Sent before the line, and the newest one sent more than a moment before the line
          // came out: 200 ms for the trade's way to the binary and the tick's own work on a
          // loaded machine, less than the 300 ms between trades.
          #expect(sentAt[shown] < line.arrivedAt, "\(line.text)")
          if shown + 1 < sentAt.count {
            #expect(
              sentAt[shown + 1] > line.arrivedAt - .milliseconds(200),
              Comment(
                rawValue: "line \(line.text) shows trade \(shown), but trade \(shown + 1) came "
                  + "\(line.arrivedAt - sentAt[shown + 1]) before it"))
          }
        }
      }
    }

    @Test func silentPrimaryStream_isReplacedWithinTwoTicksByTheNextStream_withoutAFailedLine()
      async throws
    {
      try await withExchange { server, binance, coinbase in
        let tape = TradeTape()
        binance.repeat({ tape.next() }, every: .milliseconds(50))
        coinbase.repeat(
          { FakeStreamMessage.coinbaseTicker(price: Self.coinbasePrice) },
          every: .milliseconds(50))

        let run = try BinaryProcess(
          arguments(
            ["--count", "8", "--interval", "1"], sources: "binance,coinbase", server: server,
            binance: binance, coinbase: coinbase),
          environment: Self.defaultSettings)
        #expect(await run.waitForLines(2))
        binance.stopRepeating()
        try await Task.sleep(for: .milliseconds(100))
        let lastTrade = try #require(tape.sentAt.last)

        #expect(await run.waitForExit() == 0)
        coinbase.stopRepeating()
        let lines = run.lines
        #expect(lines.count == 8)
        #expect(lines.allSatisfy { $0.text.contains(#""stale":false"#) }, "\(lines.map(\.text))")
        #expect(lines.prefix(2).contains { TradeTape.shows($0.text) }, "\(lines.map(\.text))")
        // The first tick after the last trade shows it (it is the newest trade), the second may;
        // from the third on, the coinbase stream's price.
        let afterSilence = lines.filter { $0.arrivedAt > lastTrade }.map(\.text)
        #expect(afterSilence.count >= 5, "\(afterSilence)")
        #expect(afterSilence.last?.contains(Self.coinbasePrice) == true, "\(afterSilence)")
        #expect(
          afterSilence.dropFirst(2).allSatisfy { $0.contains(Self.coinbasePrice) },
          "\(afterSilence)")
        #expect(await requests(server) == 0)
        #expect(run.stderrText.isEmpty, "\(run.stderrText)")
      }
    }

    @Test func afterTheStreamReconnects_RESTRequestsStopAgain() async throws {
      try await withExchange { server, binance, coinbase in
        let tape = TradeTape()
        binance.repeat({ tape.next() }, every: .milliseconds(50))
        let run = try BinaryProcess(
          arguments(["--interval", "0.1"], server: server, binance: binance, coinbase: coinbase),
          environment: Self.defaultSettings)
        defer { run.send(SIGKILL) }
        #expect(await run.waitForLines(3))
        #expect(await requests(server) == 0)

        binance.close()
        await eventually(
          within: .seconds(15),
          { run.stdoutText.contains { $0.contains(Self.restPrice) } },
          "no tick asked REST while the stream was closed")
        await eventually(
          within: .seconds(15), { binance.connections == 2 }, "the stream was not reopened")
        let reopened = run.lines.count
        await eventually(
          within: .seconds(15),
          {
            run.stdoutText.dropFirst(reopened).contains(where: TradeTape.shows)
          }, "no tick read the reopened stream")
        let restAfterReconnect = await requests(server)
        let seen = run.lines.count
        #expect(await run.waitForLines(seen + 15))

        #expect(await requests(server) == restAfterReconnect)
        #expect(restAfterReconnect > 0)
        #expect(
          run.stdoutText.suffix(10).allSatisfy { !$0.contains(Self.restPrice) },
          "\(run.stdoutText.suffix(10))")
        #expect(run.stdoutText.allSatisfy { $0.contains(#""stale":false"#) })
        #expect(
          run.stderrText.isEmpty, "no noise per reconnect without --verbose: \(run.stderrText)")
        run.send(SIGINT)
        #expect(await run.waitForExit() == 130)
      }
    }

    @Test func oversizedFrames_keepMemoryBounded_andTicksGoOnOverREST() async throws {
      try await withExchange { server, binance, coinbase in
        binance.repeat({ FakeStreamMessage.binanceTrade(price: "70001.45") }, every: .seconds(1))
        // Half-second ticks: every line must be fresh, and a REST answer within a tenth of a
        // second was what a run with both cores busy missed (7 Dec), not what this tells apart.
        let run = try BinaryProcess(
          arguments(["--interval", "0.5"], server: server, binance: binance, coinbase: coinbase),
          environment: Self.defaultSettings)
        defer { run.send(SIGKILL) }
        #expect(await run.waitForLines(2))

        // 96 MiB a frame, more than the bound below, again as soon as the stream is back: the binary refuses each from its
        // header (64 KiB at most), so none of it is ever held.
        for _ in 0..<8 {
          binance.sendForbidden(.oversized(bytes: 96 << 20))
          try await Task.sleep(for: .milliseconds(200))
        }
        let peak = try #require(ProcessMemory.peakResidentBytes(of: run.processIdentifier))

        #expect(peak < 64 << 20, "peak RSS \(peak >> 20) MiB")
        #expect(binance.connections > 1, "the oversized frame did not end the connection")
        #expect(run.stdoutText.allSatisfy { $0.contains(#""stale":false"#) })
        run.send(SIGINT)
        #expect(await run.waitForExit() == 130)
      }
    }

    /// Every mode of the command line ticks through the same pipeline: the status bar's too.
    @Test func waybar_withDefaultSettings_showsTheStreamsTrade_withoutARESTRequest() async throws {
      try await withExchange { server, binance, coinbase in
        binance.repeat(
          { FakeStreamMessage.binanceTrade(price: "71001.45") }, every: .milliseconds(50))

        let run = try BinaryProcess(
          arguments(
            ["--waybar", "--count", "3", "--interval", "0.1"], server: server, binance: binance,
            coinbase: coinbase
          ).filter { $0 != "--json" },
          environment: Self.defaultSettings)

        #expect(await run.waitForExit() == 0)
        #expect(run.stdoutText.count == 3)
        #expect(run.stdoutText.allSatisfy { $0.contains("71,001.45") }, "\(run.stdoutText)")
        #expect(await requests(server) == 0)
      }
    }

    @Test func serve_withDefaultSettings_servesTheStreamsTrade_withoutARESTRequest() async throws {
      try await withExchange { server, binance, coinbase in
        binance.repeat(
          { FakeStreamMessage.binanceTrade(price: "71001.45") }, every: .milliseconds(50))
        let run = try BinaryProcess(
          ["serve", "--port", "0", "--interval", "0.1"]
            + arguments([], server: server, binance: binance, coinbase: coinbase).filter {
              $0 != "--json"
            },
          environment: Self.defaultSettings)
        defer { run.send(SIGKILL) }
        #expect(await run.waitForLines(1))
        let address = try #require(run.serveAddress)
        let body = try await apiPrice(at: address) { $0.contains("71001.45") }

        #expect(body.contains(#""price":"71001.45""#), "\(body)")
        #expect(await requests(server) == 0)
        run.send(SIGTERM)
        #expect(await run.waitForExit() == 0)
      }
    }

    @Test func noStream_asksRESTEveryTick_andOpensNoStream_overTheEnvironment() async throws {
      try await withExchange { server, binance, coinbase in
        binance.repeat(
          { FakeStreamMessage.binanceTrade(price: "70001.45") }, every: .milliseconds(50))

        let run = try BinaryProcess(
          arguments(
            ["--no-stream", "--count", "3", "--interval", "0.1"], server: server,
            binance: binance, coinbase: coinbase),
          environment: ["BTC_PRICE_STREAM": "true"])

        #expect(await run.waitForExit() == 0)
        #expect(run.stdoutText.count == 3)
        #expect(run.stdoutText.allSatisfy { $0.contains(Self.restPrice) }, "\(run.stdoutText)")
        #expect(await requests(server) == 3)
        #expect(binance.connections == 0)
      }
    }
  }
}
