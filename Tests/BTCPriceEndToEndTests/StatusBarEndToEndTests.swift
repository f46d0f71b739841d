import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// The built binary as status bars run it: in another currency, shaped by a template, as Waybar
/// JSON, re-run every few seconds from many panes, with a settings file.
extension BinaryEndToEndTests {
  @Suite(
    "btc-price in a status bar", .serialized, .timeLimit(.minutes(2)), .hangLimit(.seconds(30)))
  final class StatusBarEndToEndTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "btc-price-statusbar-\(UUID().uuidString)")
    var xdg: [String: String] {
      [
        "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path,
        "XDG_STATE_HOME": folder.appendingPathComponent("state").path,
        "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path,
      ]
    }

    deinit {
      try? FileManager.default.removeItem(at: folder)
    }

    // MARK: --once --max-age

    @Test func maxAge_printsAFreshCacheWithoutAskingAnySource() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.coinbase, .coinbase(price: "68880.55"))

        let (first, status, runs) = try await BinaryProcess.oneShot {
          try self.run(server, "--once", "--max-age", "30")
        }
        #expect(status == 0)
        let second = try run(server, "--once", "--max-age", "30")
        #expect(await second.waitForExit() == 0)

        // One request per run of the first one-shot, none from the second.
        #expect(await server.requests(to: .coinbase).count == runs)
        #expect(second.stdoutText == first.stdoutText)
        #expect(second.stdoutText.first?.hasSuffix(" - $68,880.55") == true)
      }
    }

    @Test func maxAge_asksAgainOnceTheCacheIsOlder() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.coinbase, .coinbase(price: "68880.55"))
        let (_, status, runs) = try await BinaryProcess.oneShot {
          try self.run(server, "--once", "--max-age", "0.5")
        }
        #expect(status == 0)
        await server.stub(.coinbase, .coinbase(price: "68900.00"))
        try await Task.sleep(for: .seconds(1))
        let later = try run(server, "--once", "--max-age", "0.5")

        #expect(await later.waitForExit() == 0)
        #expect(await server.requests(to: .coinbase).count == runs + 1)
        #expect(later.stdoutText.first?.hasSuffix(" - $68,900.00") == true)
      }
    }

    /// Five panes that find the cache stale at the same moment: one asks, the others wait for
    /// its answer.
    @Test func maxAge_manyPanesAtOnce_makeOneRequest() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.coinbase, .coinbase(price: "68880.55", delay: .milliseconds(200)))

        func fivePanes() throws -> [BinaryProcess] {
          try (0..<5).map { _ in try run(server, "--once", "--max-age", "30") }
        }
        var (panes, rounds) = (try fivePanes(), 1)
        for pane in panes { _ = await pane.waitForExit() }
        // The one that asked missed its second (BinaryProcess.oneShot): all five go once more.
        if panes.contains(where: \.ranOutOfTime) {
          (panes, rounds) = (try fivePanes(), 2)
        }
        for pane in panes { #expect(await pane.waitForExit() == 0) }

        #expect(await server.requests(to: .coinbase).count == rounds)
        #expect(panes.allSatisfy { $0.stdoutText.first?.hasSuffix(" - $68,880.55") == true })
      }
    }

    // MARK: --currency

    @Test func currencyEUR_asksEachSourceForItsEuroPairAndPrintsEuros() async throws {
      try await FakeExchangeServer.withRunning { server in
        let failing = FakeResponse(status: 500, json: "{}")
        for route in [FakeExchangeServer.Route.binance, .cryptoCompare, .coinbase, .kraken] {
          await server.stub(route, failing)
        }
        await server.stub(.bitstamp, .bitstamp(price: "63412.70", pair: "BTC/EUR"))

        let (run, status, _) = try await BinaryProcess.oneShot {
          try self.run(server, "--once", "--currency", "eur", "--sources", euroSources)
        }

        #expect(status == 0)
        #expect(run.stdoutText.first?.hasSuffix(" - €63,412.70") == true, "\(run.stdoutText)")
        #expect(await server.requests(to: .binance).first?.query == "symbol=BTCEUR")
        #expect(
          await server.requests(to: .cryptoCompare).first?.query
            == "fsym=BTC&tsym=EUR&e=coinbase")
        #expect(await server.requests(to: .coinbase).first?.path == "/v2/prices/BTC-EUR/spot")
        #expect(await server.requests(to: .kraken).first?.query == "pair=XBTEUR")
        #expect(await server.requests(to: .bitstamp).first?.path == "/api/v2/ticker/btceur/")
      }
    }

    @Test func currencyJPY_printsYenWithoutDecimalsAndSkipsSourcesWithoutAPair() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, FakeResponse(status: 500, json: "{}"))
        await server.stub(.coinbase, .coinbase(price: "10512345.4999", currency: "JPY"))

        let (run, status, _) = try await BinaryProcess.oneShot {
          try self.run(
            server, "--once", "--currency", "JPY", "--json", "--verbose", "--sources",
            "binance,coinbase")
        }

        #expect(status == 0)
        let line = try #require(run.stdoutText.first)
        #expect(line.contains(#""price":"10512345.4999","currency":"JPY","source":"coinbase""#))
        let plain = try self.run(
          server, "--once", "--currency", "JPY", "--sources", "binance,coinbase")
        #expect(await plain.waitForExit() == 0)
        #expect(plain.stdoutText.first?.hasSuffix(" - ¥10,512,345") == true)
        #expect(run.stderrText.contains("BTC/JPY from binance, coinbase"))
      }
    }

    @Test func currencyFromAnExplicitSourceWithoutThePair_isAUsageError() async throws {
      let run = try BinaryProcess(
        ["--once", "--currency", "JPY", "--sources", "bitstamp"], environment: xdg)

      #expect(await run.waitForExit() == 64)
      #expect(run.stderrText.contains("bitstamp has no BTC/JPY market"))
    }

    /// One cache per currency: a run in EUR never shows a USD value, and the reverse.
    @Test func cache_keepsOneLastValuePerCurrency() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.coinbase, .coinbase(price: "63412.70", currency: "EUR"))
        #expect(
          try await BinaryProcess.oneShot { try self.run(server, "--once", "--currency", "EUR") }
            .status
            == 0)
        await server.stub(.coinbase, FakeResponse(status: 500, json: "{}"))

        let inDollars = try run(server, "--once")
        let inEuros = try run(server, "--once", "--currency", "EUR")

        #expect(await inDollars.waitForExit() == 1)
        #expect(await inEuros.waitForExit() == 1)
        #expect(
          inDollars.stdoutText == [
            "Failed to update value. Displaying last updated value from - - -"
          ])
        #expect(inEuros.stdoutText.first?.hasSuffix(" - €63,412.70") == true)
      }
    }

    // MARK: --format and --waybar

    @Test func format_shapesEveryLine() async throws {
      try await FakeExchangeServer.withRunning { server in
        // The first price twice: a first tick that misses its second (DEVELOPERS.md, "A first
        // tick can miss its second in a full run") still takes the script's first answer.
        await server.stub(
          .coinbase, .coinbase(price: "68880.55"), .coinbase(price: "68880.55"),
          .coinbase(price: "68900.00"))

        let run = try run(
          server, "--count", "3", "--interval", "0.5", "--format", "{arrow} {price} {change}{stale}"
        )

        #expect(await run.waitForExit() == 0)
        let onTime = ["• $68,880.55 ", "• $68,880.55 $0.00", "▲ $68,900.00 +$19.45"]
        let afterAFailedFirstTick = ["• - stale", "• $68,880.55 ", "▲ $68,900.00 +$19.45"]
        #expect(
          run.stdoutText == onTime || run.stdoutText == afterAFailedFirstTick, "\(run.stdoutText)")
      }
    }

    @Test func format_withAnUnknownPlaceholder_isAUsageErrorListingTheKnownOnes() async throws {
      let run = try BinaryProcess(["--once", "--format", "{prize}"], environment: xdg)

      #expect(await run.waitForExit() == 64)
      #expect(run.stderrText.contains("unknown placeholder {prize}"))
      #expect(run.stderrText.contains("{price}, {amount}, {currency}"))
    }

    @Test func waybar_printsOneJSONObjectPerTick() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.coinbase, .coinbase(price: "68880.55"))

        let run = try run(server, "--count", "3", "--interval", "0.5", "--waybar")

        #expect(await run.waitForExit() == 0)
        #expect(run.stdoutText.count == 3)
        let objects = try run.stdoutText.map { line in
          try #require(
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        }
        #expect(objects.allSatisfy { Set($0.keys) == ["text", "alt", "tooltip", "class"] })
        // Every tick shows the price, but a first tick that missed its second (DEVELOPERS.md).
        #expect(objects.dropFirst().allSatisfy { $0["text"] == "$68,880.55" }, "\(objects)")
        #expect(["$68,880.55", "-"].contains(objects[0]["text"]), "\(objects)")
      }
    }

    /// The module from docs/STATUS-BARS.md, pasted into Waybar's config, as Waybar would run it.
    @Test func theDocsWaybarSnippet_isValidJSONAndItsCommandWorks() async throws {
      let page = try String(
        contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
          .deletingLastPathComponent().deletingLastPathComponent()
          .appendingPathComponent("docs/STATUS-BARS.md"), encoding: .utf8)
      let snippet = try #require(
        page.firstMatch(of: #/<!-- waybar-module -->\n```jsonc?\n(?<json>[^`]+)```/#)?.json)

      let module = try #require(
        try JSONSerialization.jsonObject(with: Data(snippet.utf8)) as? [String: Any])
      let custom = try #require(module["custom/btc-price"] as? [String: Any])
      #expect(custom["return-type"] as? String == "json")
      let exec = try #require(custom["exec"] as? String)
      #expect(exec.hasPrefix("btc-price --waybar"))

      // Waybar runs `exec` with sh -c, finding btc-price on the PATH.
      let bin = folder.appendingPathComponent("bin")
      try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(
        at: bin.appendingPathComponent("btc-price"), withDestinationURL: BinaryProcess.binaryURL)
      let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.coinbase, .coinbase(price: "68880.55"))
        let (run, status, _) = try await BinaryProcess.oneShot {
          try BinaryProcess.shell(
            exec + #" --count 1 "$@""#,
            arguments: ["--primary-timeout", "3", "--sources", "coinbase"] + server.urlArguments,
            environment: xdg.merging(["PATH": "\(bin.path):\(path)"]) { _, new in new })
        }

        #expect(status == 0)
        let line = try #require(run.stdoutText.first)
        #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: String])
      }
    }

    // MARK: The settings file

    @Test func settings_flagBeatsEnvironmentBeatsFile() async throws {
      try writeSettings("currency: EUR\nformat: \"{price} from {source}\"\n")
      try await FakeExchangeServer.withRunning { server in
        // The runs go one after the other; each is answered in the currency it should ask for
        // (the last answer scripted is given again, to a first run asked once more too).
        await server.stub(.coinbase, .coinbase(price: "1", currency: "EUR"))
        let (fromFile, status, _) = try await BinaryProcess.oneShot {
          try self.run(server, "--once")
        }
        #expect(status == 0)
        await server.stub(.coinbase, .coinbase(price: "1", currency: "GBP"))
        let fromEnvironment = try run(
          server, ["--once"], environment: ["BTC_PRICE_CURRENCY": "GBP"])
        #expect(await fromEnvironment.waitForExit() == 0)
        await server.stub(.coinbase, .coinbase(price: "1", currency: "CHF"))
        let fromFlag = try run(
          server, ["--once", "--currency", "CHF"], environment: ["BTC_PRICE_CURRENCY": "GBP"])
        #expect(await fromFlag.waitForExit() == 0)
        #expect(fromFile.stdoutText == ["€1.00 from Coinbase"])
        #expect(fromEnvironment.stdoutText == ["£1.00 from Coinbase"])
        #expect(fromFlag.stdoutText == ["CHF 1.00 from Coinbase"])
      }
    }

    @Test func settings_aBadValueIsAUsageErrorNamingTheFileTheLineAndTheKey() async throws {
      try writeSettings("# mine\ncurrency: EUR\ninterval: fast\ncryptocompare-api-key: s3cr3t\n")

      let run = try BinaryProcess(["--once"], environment: xdg)

      #expect(await run.waitForExit() == 64)
      #expect(run.stdoutText.isEmpty)
      #expect(
        run.stderrText.contains(
          "\(settingsPath):3: interval: must be a number of seconds from 0.01 to 86400, got \"fast\""
        ))
      #expect(!run.stderrText.contains("s3cr3t"))
    }

    @Test func settings_theAPIKeyFromTheFileGoesToCryptoCompareOnly() async throws {
      try writeSettings("cryptocompare-api-key: s3cr3t-from-file\n")
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, FakeResponse(status: 500, json: "{}"))
        await server.stub(.cryptoCompare, .cryptoCompare(price: "68910.12"))

        let (run, status, _) = try await BinaryProcess.oneShot {
          try self.run(server, "--once", "--verbose", "--sources", "binance,cryptocompare")
        }

        #expect(status == 0)
        #expect(
          await server.requests(to: .cryptoCompare).first?.headers["authorization"]
            == "Apikey s3cr3t-from-file")
        #expect(await server.requests(to: .binance).first?.headers["authorization"] == nil)
        #expect(!run.stderrText.contains("s3cr3t"))
      }
    }

    // MARK: - Helpers

    /// Every source that serves EUR, in the default order.
    private let euroSources = PriceSourceRegistry.serving(.eur).map(\.source.id)
      .joined(separator: ",")

    private var settingsPath: String {
      folder.appendingPathComponent("config/btc-price/config").path
    }

    private func writeSettings(_ text: String) throws {
      let url = URL(fileURLWithPath: settingsPath)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }

    private func run(_ server: FakeExchangeServer, _ arguments: String...) throws -> BinaryProcess {
      try run(server, arguments)
    }

    /// The binary against the fake exchange, with this suite's XDG folders and Coinbase as the
    /// only source unless `arguments` say otherwise (later options win).
    private func run(
      _ server: FakeExchangeServer, _ arguments: [String], environment: [String: String] = [:]
    ) throws -> BinaryProcess {
      try BinaryProcess(
        ["--primary-timeout", "3", "--sources", "coinbase"] + server.urlArguments + arguments,
        environment: xdg.merging(environment) { _, new in new })
    }
  }
}
