import BTCPriceTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The built binary with `--stream` and two streams that disagree: one says a price ten times
/// off, Kraken's REST answer (the referee) agrees with the other. The ten-times-off price is
/// never the shown price, stderr says so once, `--json` (and `serve`'s `/api/price`) names it on
/// each tick it was rejected.
extension BinaryEndToEndTests {
  @Suite(
    "btc-price --stream: a price two sources contradict is never shown", .serialized,
    .timeLimit(.minutes(2)), .hangLimit(.seconds(30)))
  struct CrossCheckEndToEndTests {
    static let right = "68901.23"
    static let referee = "68870.10"

    /// Which stream lies: the primary (Binance) or its cross-check (Coinbase).
    enum Liar: CaseIterable {
      case primary, crossCheck

      var wrong: String { self == .primary ? "6890.12" : "689012.3" }
      var liarID: String { self == .primary ? "binance" : "coinbase" }
      var honestID: String { self == .primary ? "coinbase" : "binance" }
    }

    @Test(arguments: Liar.allCases)
    func json_showsTheMajoritysPriceOnEveryTick_andNamesTheRejectedOne(liar: Liar) async throws {
      try await withExchange(liar: liar, ["--json", "--count", "15"]) { run in
        #expect(await run.waitForExit() == 0)
        let lines = try run.stdoutText.map { line in
          try #require(
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        #expect(lines.count == 15)
        #expect(lines.allSatisfy { $0["price"] as? String == Self.right }, "\(run.stdoutText)")
        #expect(lines.allSatisfy { $0["stale"] as? Bool == false })
        let rejecting = lines.filter { $0["crossCheck"] != nil }
        #expect(rejecting.allSatisfy { $0["source"] as? String == liar.honestID })
        let rejections = rejecting.compactMap { $0["crossCheck"] as? [String: Any] }
        #expect(rejections.count >= 5, "\(run.stdoutText)")
        for rejection in rejections {
          #expect(rejection["referee"] as? String == "kraken")
          #expect(
            rejection["rejected"] as? [String: String]
              == ["source": liar.liarID, "price": liar.wrong])
        }
        #expect(
          run.stderrText.components(separatedBy: "is not shown").count == 2,
          "one notice: \(run.stderrText)")
      }
    }

    @Test func plainLines_neverPrintTheWrongPrice_norFireAnAlertOnIt() async throws {
      try await withExchange(
        liar: .primary, ["--count", "15", "--verbose", "--alert", "below:10000"]
      ) { run in
        #expect(await run.waitForExit() == 0)
        let lines = run.stdoutText
        #expect(lines.count == 15)
        #expect(lines.allSatisfy { $0.hasSuffix(" - $68,901.23") }, "\(lines)")
        #expect(!lines.joined().contains("6,890"))
        #expect(!lines.joined().contains("Alert"), "below:10000 never fires")
        let stderr = run.stderrText
        #expect(
          stderr.components(separatedBy: "the binance stream's price $6,890.12 is not shown")
            .count == 2, "\(stderr)")
        #expect(
          stderr.components(separatedBy: "cross-check: rejected binance (6890.12)").count >= 6,
          "a --verbose line each tick: \(stderr)")
      }
    }

    @Test func serve_apiPriceCarriesTheRejection_andStderrSaysItOnce() async throws {
      try await withExchange(liar: .primary, command: ["serve", "--port", "0"], []) { run in
        defer { run.send(SIGKILL) }
        let address = try #require(run.serveAddress)
        let body = try await apiPrice(at: address) { $0.contains("crossCheck") }
        #expect(body.contains(#""price":"\#(Self.right)""#), "\(body)")
        #expect(
          body.contains(
            #""crossCheck":{"rejected":{"source":"binance","price":"6890.12"},"referee":"kraken"}"#
          ), "\(body)")
        // A few more disagreeing ticks, still one notice.
        try await Task.sleep(for: .milliseconds(600))
        run.send(SIGTERM)
        #expect(await run.waitForExit() == 0)
        #expect(
          run.stderrText.components(separatedBy: "is not shown").count == 2, "\(run.stderrText)")
      }
    }

    // MARK: Helpers

    /// Runs the binary with two streams and Kraken's REST as the referee. The honest stream
    /// speaks first, the liar only once the honest one is connected, so every run sees the same
    /// order (the first tick waits for both streams' first prices, see
    /// `TickThroughStreamsUseCaseTests`).
    private func withExchange(
      liar: Liar, command: [String] = [], _ extra: [String],
      _ body: (BinaryProcess) async throws -> Void
    ) async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.kraken, .kraken(price: Self.referee))
        await server.stub(.binance, .binance(price: Self.right))
        await server.stub(.coinbase, .coinbase(price: Self.right))
        let binance = try await FakeStreamServer.start()
        let coinbase = try await FakeStreamServer.start()
        defer {
          binance.stopRepeating()
          coinbase.stopRepeating()
        }
        let (honest, lying) = liar == .primary ? (coinbase, binance) : (binance, coinbase)
        let message: @Sendable (FakeStreamServer, String) -> String = { stream, price in
          stream === binance
            ? FakeStreamMessage.binanceTrade(price: price)
            : FakeStreamMessage.coinbaseTicker(price: price)
        }
        honest.repeat({ message(honest, Self.right) }, every: .milliseconds(100))
        do {
          let run = try BinaryProcess(
            command + [
              "--stream", "--no-cache", "--interval", "0.2", "--sources", "binance,coinbase,kraken",
            ]
              + extra + server.urlArguments
              + [
                "--binance-stream-url", binance.url(path: "/ws/btcusdt@trade").absoluteString,
                "--coinbase-stream-url", coinbase.url(path: "/coinbase").absoluteString,
              ])
          await eventually(within: .seconds(15), { run.lines.count >= 1 }, "no first tick")
          lying.repeat({ message(lying, liar.wrong) }, every: .milliseconds(100))
          try await body(run)
        } catch {
          await binance.stop()
          await coinbase.stop()
          throw error
        }
        await binance.stop()
        await coinbase.stop()
      }
    }
  }
}
