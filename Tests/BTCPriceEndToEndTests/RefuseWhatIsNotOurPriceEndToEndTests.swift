import BTCPriceCore
import BTCPricePersistence
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// The built binary against answers that are valid-looking and wrong: another pair's ticker, a
/// price named twice, a price written with an exponent, a first stream frame that came with the
/// upgrade, and a price that jumped from the last one shown. None may become a price it is not.
extension BinaryEndToEndTests {
  @Suite(
    "btc-price refuses what is not our price", .serialized, .timeLimit(.minutes(2)),
    .hangLimit(.seconds(30)))
  final class RefuseWhatIsNotOurPriceEndToEndTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "btc-price-refuse-\(UUID().uuidString)")
    var cacheURL: URL { folder.appendingPathComponent("last-price.json") }

    deinit {
      try? FileManager.default.removeItem(at: folder)
    }

    // MARK: The pair

    /// Bitstamp's documented example is ETH/USD's ticker: not a bitcoin price, on its own or as
    /// the fall back.
    @Test func bitstampAnswerForAnotherPair_isNoPrice() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.bitstamp, .bitstamp(price: "2211", pair: "ETH/USD"))
        await server.stub(.kraken, .kraken(price: "68870.10"))

        // Each one-shot is run once more if it ran out of time (BinaryProcess.oneShot).
        let (alone, status, _) = try await BinaryProcess.oneShot {
          try BinaryProcess(
            ["--once", "--json", "--no-cache", "--sources", "bitstamp"] + server.urlArguments)
        }
        #expect(status == 1)
        let line = try #require(alone.stdoutText.first)
        #expect(line.contains(#""price":null"#), "\(line)")
        #expect(line.contains("pair ETH/USD is not BTC/USD"), "\(line)")

        let (chain, chainStatus, _) = try await BinaryProcess.oneShot {
          try BinaryProcess(
            ["--once", "--json", "--no-cache", "--sources", "bitstamp,kraken"]
              + server.urlArguments)
        }
        #expect(chainStatus == 0)
        #expect(
          chain.stdoutText.first?.contains(#""price":"68870.1","currency":"USD","source":"kraken""#)
            == true, "\(chain.stdoutText)")
      }
    }

    // MARK: The payload

    /// A price named twice is no answer (whichever copy another parser would take), and a string
    /// price with an exponent is no price: the next source answers.
    @Test(arguments: [
      #"{"symbol":"BTCUSDT","price":"74192.71","price":"1"}"#,
      #"{"symbol":"BTCUSDT","price":"1","price":"74192.71"}"#,
      #"{"symbol":"BTCUSDT","symbol":"ETHUSDT","price":"74192.71"}"#,
      #"{"symbol":"BTCUSDT","price":"7.419271e4"}"#,
    ])
    func aMangledBinanceAnswer_fallsToTheNextSource(body: String) async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, FakeResponse(json: body))
        await server.stub(.coinbase, .coinbase(price: "68880.55"))

        let run = try BinaryProcess(
          ["--once", "--json", "--no-cache", "--verbose", "--sources", "binance,coinbase"]
            + server.urlArguments)

        #expect(await run.waitForExit() == 0)
        #expect(
          run.stdoutText.first?.contains(
            #""price":"68880.55","currency":"USD","source":"coinbase""#)
            == true, "\(run.stdoutText)")
        #expect(run.stderrText.contains("binance failed"), "\(run.stderrText)")
      }
    }

    // MARK: The first stream frame

    /// The stream's first trade arrives in the same read as the upgrade's answer, 40 KB long: the
    /// first line shows it, and the stream stays up.
    @Test func aLargeFirstFrameThatCameWithTheUpgrade_isTheFirstPrice() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68880.55"))
        try await FakeStreamServer.withRunning { stream in
          let trade = FakeStreamMessage.binanceTrade(price: "70123.45")
          stream.behave(
            .greet(
              String(trade.dropLast()) + #","x":""# + String(repeating: "a", count: 40_000) + #""}"#
            ))

          let run = try BinaryProcess(
            [
              "--json", "--no-cache", "--sources", "binance", "--stream", "--count", "2",
              "--verbose",
            ]
              + server.urlArguments + stream.urlArguments)

          #expect(await run.waitForExit() == 0)
          #expect(
            run.stdoutText.first?.contains(#""price":"70123.45""#) == true, "\(run.stdoutText)")
          #expect(!run.stderrText.contains("protocol violation"), "\(run.stderrText)")
          #expect(stream.connections == 1)
        }
      }
    }

    // MARK: Plausibility

    /// The cached price is 68,901.23, seconds old. Binance answers another asset's price in a
    /// valid shape; Coinbase agrees with the cache: Coinbase's price is shown, and `--verbose`
    /// says why Binance's was not.
    @Test func aPriceFarFromTheLastOne_thatTheNextSourceContradicts_isNotShown() async throws {
      try saveCache(at: Date())
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "2211.00"))
        await server.stub(.coinbase, .coinbase(price: "68890.55"))

        // Binance's answer is the point: a run where it ran out of time goes again, from the
        // same cache (it saved Coinbase's price).
        let (run, status, _) = try await BinaryProcess.oneShot(evenWithAPrice: true) {
          try saveCache(at: Date())
          return try self.run(server, "--sources", "binance,coinbase", "--verbose")
        }

        #expect(status == 0)
        #expect(
          run.stdoutText.first?.contains(
            #""price":"68890.55","currency":"USD","source":"coinbase""#)
            == true, "\(run.stdoutText)")
        #expect(
          run.stderrText.contains(
            "binance failed after"),
          "\(run.stderrText)")
        #expect(
          run.stderrText.contains(
            "price 2211 is more than 2 % from coinbase's 68890.55, which the last price (68901.23) "
              + "confirmed"), "\(run.stderrText)")
      }
    }

    /// The market moved 9 %: the next source agrees, and the primary's price is shown at once.
    @Test func aMoveThatTheNextSourceConfirms_isShownInTheSameTick() async throws {
      try saveCache(at: Date())
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "75000.00"))
        await server.stub(.coinbase, .coinbase(price: "75010.00"))

        let (run, status, runs) = try await BinaryProcess.oneShot {
          try self.run(server, "--sources", "binance,coinbase")
        }

        #expect(status == 0)
        #expect(
          run.stdoutText.first?.contains(#""price":"75000","currency":"USD","source":"binance""#)
            == true, "\(run.stdoutText)")
        // Asked once by the run that counts (and perhaps by one that ran out of time before).
        #expect((1...runs).contains(await server.requests(to: .coinbase).count))
      }
    }

    /// Nobody can confirm the move: the tick fails with the reason, and shows the cached price.
    @Test func aMoveNobodyConfirms_failsTheTick_andSaysWhy() async throws {
      try saveCache(at: Date())
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "75000.00"))
        await server.stub(.coinbase, FakeResponse(status: 503, json: "{}"))

        let (run, status, _) = try await BinaryProcess.oneShot {
          try self.run(server, "--sources", "binance,coinbase")
        }

        #expect(status == 1)
        let line = try #require(run.stdoutText.first)
        #expect(line.contains(#""price":"68901.23""#), "\(line)")
        #expect(line.contains(#""stale":true"#), "\(line)")
        #expect(
          line.contains(
            "price 75000 is more than 2 % from the last price 68901.23 and no other source "
              + "confirmed it"), "\(line)")
      }
    }

    /// A cache from yesterday says nothing about today: the first answer is shown as it comes.
    @Test func aLastPriceFromYesterday_holdsNothingBack() async throws {
      try saveCache(at: Date().addingTimeInterval(-86_400))
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "75000.00"))
        await server.stub(.coinbase, FakeResponse(status: 503, json: "{}"))

        let (run, status, runs) = try await BinaryProcess.oneShot {
          try self.run(server, "--sources", "binance,coinbase")
        }

        #expect(status == 0)
        #expect(
          run.stdoutText.first?.contains(#""price":"75000","currency":"USD","source":"binance""#)
            == true, "\(run.stdoutText)")
        // Not asked by the run that counts (a run that ran out of time before may have).
        #expect(await server.requests(to: .coinbase).count <= runs - 1)
      }
    }

    // MARK: Helpers

    /// A one-shot with `--json` and this test's cache.
    private func run(_ server: FakeExchangeServer, _ extra: String...) throws -> BinaryProcess {
      try BinaryProcess(
        ["--once", "--json", "--cache-path", cacheURL.path] + extra + server.urlArguments)
    }

    /// The cache holds Binance's 68,901.23, received at `time`.
    private func saveCache(at time: Date) throws {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try FilePriceStore(fileURL: cacheURL, knownSources: PriceSourceRegistry.all.map(\.source))
        .save(
          PriceQuote(
            value: Decimal(string: "68901.23")!, timestamp: time,
            source: PriceSourceDefinition.binance.source))
    }
  }
}
