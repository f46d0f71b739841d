import BTCPriceCore
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The built binary with `--holdings` and `--cost-basis`: their worth in `--json` and
/// `--format`, bad amounts refused as usage errors, and the holdings kept on this machine:
/// `serve` never carries them, `--verbose` never prints them.
extension BinaryEndToEndTests {
  @Suite(
    "btc-price with the user's holdings", .serialized, .timeLimit(.minutes(2)),
    .hangLimit(.seconds(30)))
  final class HoldingsEndToEndTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "btc-price-holdings-\(UUID().uuidString)")
    var cachePath: String { folder.appendingPathComponent("cache/last-price.json").path }

    deinit {
      try? FileManager.default.removeItem(at: folder)
    }

    @Test func json_andFormat_showTheWorthItsDaysChangeAndTheGain() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))
        await server.stubCandles(.binance, .binanceDay(flatAt: "68000.00"))

        let json = try run(server, ["--once", "--json", "--holdings", "0.25"], cost: "15000 USD")
        let line = try run(
          server, ["--once", "--format", "{price} {value} {value_change_24h} {pnl} {pnl_pct}"],
          environment: ["BTC_PRICE_HOLDINGS": "0.25"], cost: "15000 usd")

        #expect(await json.waitForExit() == 0)
        #expect(await line.waitForExit() == 0)
        #expect(
          json.stdoutText.first?.contains(
            #""holdings":{"amount":"0.25","value":"17225.31","change24h":"225.31","#
              + #""pnl":{"absolute":"2225.31","percent":"14.84"}}"#) == true,
          "\(json.stdoutText)")
        #expect(line.stdoutText == ["$68,901.23 $17,225.31 +$225.31 +$2,225.31 +14.84%"])
      }
    }

    @Test(arguments: [
      (["--holdings", "0.123456789"], "--holdings", "more than 8 decimals"),
      (["--holdings=-1"], "--holdings", "not an amount of bitcoin"),
      (["--holdings", "21000001"], "--holdings", "more bitcoin than will ever exist"),
      (["--holdings", "1", "--cost-basis", "15000"], "--cost-basis", "not a total and a currency"),
      (["--holdings", "1", "--cost-basis", "15000 XYZ"], "--cost-basis", "not a currency"),
      (["--cost-basis", "15000 USD"], "--cost-basis", "needs --holdings"),
      (["--format", "{pnl}"], "--format", "need --holdings"),
    ])
    func aBadAmountOrBasis_isAUsageError_namingTheOption(
      arguments: [String], option: String, words: String
    ) async throws {
      let run = try BinaryProcess(["--once", "--no-cache"] + arguments)

      #expect(await run.waitForExit() == 64)
      let said = run.stderrText
      #expect(said.contains(option) && said.contains(words), "\(said)")
      #expect(run.stdoutText.isEmpty)
    }

    @Test func aBadAmountInTheSettingsFile_namesItsLine() async throws {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let config = folder.appendingPathComponent("config")
      try Data("currency: EUR\nholdings: 0,5\n".utf8).write(to: config)

      let run = try BinaryProcess(["--once", "--no-cache", "--config", config.path])

      #expect(await run.waitForExit() == 64)
      let said = run.stderrText
      #expect(said.contains("\(config.path):2") && said.contains("holdings"), "\(said)")
    }

    /// `serve` takes the pipeline's settings, the holdings among them when the environment or
    /// the settings file gives them, and never carries them: not in `/api/price`, not on the
    /// page.
    @Test func serve_neverCarriesTheHoldings() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))
        let serve = try BinaryProcess(
          ["serve", "--port", "0", "--interval", "0.5", "--sources", "binance", "--no-cache"]
            + server.urlArguments,
          environment: [
            "TZ": "UTC", "BTC_PRICE_HOLDINGS": "0.25", "BTC_PRICE_COST_BASIS": "15000 USD",
          ])
        defer { serve.send(SIGKILL) }
        #expect(await serve.waitForLines(1))
        let address = try #require(serve.serveAddress, "\(serve.stdoutText) \(serve.stderrText)")

        let body = try await apiPrice(at: address) { $0.contains("68901.23") }
        let page = try await fetch("\(address)/").body

        #expect(body.contains("68901.23"), "\(body)")
        #expect(!body.contains("holdings") && !body.contains("17225"))
        #expect(!page.contains("holdings") && !page.contains("17,225"))
      }
    }

    @Test(arguments: [
      ["serve", "--port", "0", "--holdings", "0.25"],
      ["publish", "http://127.0.0.1:9/pub", "--cost-basis", "15000 USD"],
    ])
    func serveAndPublish_refuseTheHoldingsGivenAsOptions(arguments: [String]) async throws {
      let run = try BinaryProcess(arguments + ["--no-cache"])

      #expect(await run.waitForExit() == 64)
      #expect(run.stderrText.contains("are for the terminal"), "\(run.stderrText)")
    }

    @Test func verbose_neverPrintsTheAmounts_andSaysWhyNoGainIsShown() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))

        let run = try self.run(
          server, ["--once", "--verbose", "--format", "{value} [{pnl}]", "--holdings", "0.37"],
          cost: "12345 EUR")

        #expect(await run.waitForExit() == 0)
        #expect(run.stdoutText == ["$25,493.46 []"], "0.37 × 68,901.23 = 25,493.4551")
        let said = run.stderrText
        #expect(said.contains("no gain shown: the cost basis is in EUR, the price in USD"))
        #expect(!said.contains("0.37") && !said.contains("12345") && !said.contains("25,493"))
      }
    }

    private func run(
      _ server: FakeExchangeServer, _ arguments: [String],
      environment: [String: String] = [:], cost: String
    ) throws -> BinaryProcess {
      try BinaryProcess(
        ["--primary-timeout", "3", "--sources", "binance", "--history", "--cache-path", cachePath]
          + server.urlArguments + arguments,
        environment: ["TZ": "UTC", "BTC_PRICE_COST_BASIS": cost].merging(environment) { $1 })
    }
  }
}
