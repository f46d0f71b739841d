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

/// The built binary against sources that refuse, rate-limit, hang or die, and against crashes and
/// a second instance sharing its cache.
extension BinaryEndToEndTests {
  /// Intervals are 0.5 s or more where a tick must succeed: on a loaded machine the first tick
  /// (process start, first connection) can take a few hundred milliseconds.
  @Suite("btc-price under failure", .serialized, .timeLimit(.minutes(2)), .hangLimit(.seconds(30)))
  final class ResilienceEndToEndTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "btc-price-resilience-\(UUID().uuidString)")
    var cacheURL: URL { folder.appendingPathComponent("last-price.json") }

    deinit {
      try? FileManager.default.removeItem(at: folder)
    }

    @Test func defaultChain_withBinance451AndNoKey_deliversCoinbaseAndSaysWhatToDoOnce()
      async throws
    {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(
          .binance,
          FakeResponse(
            status: 451,
            json: #"{"code":0,"msg":"Service unavailable from a restricted location."}"#))
        await server.stub(.cryptoCompare, .cryptoCompareKeyRequired)
        await server.stub(.coinbase, .coinbase(price: "68880.55"))

        let run = try BinaryProcess(
          ["--json", "--count", "3", "--no-cache"] + server.urlArguments)

        #expect(await run.waitForExit() == 0)
        let lines = run.stdoutText
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.contains(#""source":"coinbase""#) }, "\(lines)")
        #expect(lines.allSatisfy { $0.contains(#""stale":false"#) })
        // Each refusal is asked once, then left alone for an hour.
        #expect(await server.requests(to: .binance).count == 1)
        #expect(await server.requests(to: .cryptoCompare).count == 1)
        let warnings = run.stderrText.split(separator: "\n")
        #expect(warnings.count == 2, "\(warnings)")
        #expect(
          warnings.contains {
            $0.contains("HTTP 451") && $0.contains("https://api.binance.us/api/v3/ticker/price")
          })
        #expect(
          warnings.contains { $0.contains("HTTP 401") && $0.contains("CRYPTOCOMPARE_API_KEY") })
      }
    }

    @Test func hangingPrimary_isLeftAloneAfterThreeTicks() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .hang)
        await server.stub(.coinbase, .coinbase(price: "68880.55"))

        let run = try BinaryProcess(
          [
            "--json", "--count", "8", "--interval", "0.5", "--primary-timeout", "0.1",
            "--sources", "binance,coinbase", "--no-cache",
          ] + server.urlArguments)

        #expect(await run.waitForExit() == 0)
        #expect(run.stdoutText.count == 8)
        #expect(run.stdoutText.allSatisfy { $0.contains(#""source":"coinbase""#) })
        // Three timeouts open its circuit for 5 s, longer than this 4 s run.
        #expect(await server.requests(to: .binance).count == 3)
        #expect(run.stderrText.isEmpty, "\(run.stderrText)")
      }
    }

    @Test func rateLimitedPrimary_isNotAskedAgainBeforeRetryAfter() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(
          .binance,
          FakeResponse(
            status: 429, headers: ["Retry-After": "1"],
            json: #"{"code":-1003,"msg":"Too many requests."}"#))
        await server.stub(.coinbase, .coinbase(price: "68880.55"))

        let run = try BinaryProcess(
          [
            "--json", "--count", "5", "--interval", "0.5", "--sources", "binance,coinbase",
            "--no-cache",
          ] + server.urlArguments)

        #expect(await run.waitForExit() == 0)
        let requests = await server.requests(to: .binance)
        #expect(requests.count == 2, "\(requests.count) requests in 2.5 s")
        if requests.count == 2 {
          #expect(requests[0].receivedAt.duration(to: requests[1].receivedAt) >= .seconds(1))
        }
        #expect(run.stdoutText.allSatisfy { $0.contains(#""source":"coinbase""#) })
      }
    }

    @Test func sources_choosesTheChainAndItsOrder() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.kraken, FakeResponse(status: 503, json: #"{"error":["EService:Busy"]}"#))
        await server.stub(.bitstamp, .bitstamp(price: "68875.00"))
        await server.stub(.binance, .binance(price: "1"))

        let run = try BinaryProcess(
          ["--json", "--once", "--sources", "kraken,bitstamp", "--no-cache"] + server.urlArguments)

        #expect(await run.waitForExit() == 0)
        let line = try #require(run.stdoutText.first)
        #expect(line.contains(#""price":"68875","currency":"USD","source":"bitstamp""#), "\(line)")
        #expect(await server.requests(to: .kraken).count == 1)
        #expect(await server.requests(to: .binance).isEmpty)
      }
    }

    @Test func theDefaultChain_endsWithGemini_whichAnswersWhenEveryOtherSourceFails() async throws {
      try await FakeExchangeServer.withRunning { server in
        for definition in PriceSourceRegistry.all where definition.source.id != "gemini" {
          await server.stub(definition, FakeResponse(status: 503, json: "{}"))
        }
        await server.stub(.gemini, .gemini(price: "68870.55"))

        let run = try BinaryProcess(["--json", "--once", "--no-cache"] + server.urlArguments)

        #expect(await run.waitForExit() == 0)
        let line = try #require(run.stdoutText.first)
        #expect(line.contains(#""price":"68870.55","currency":"USD","source":"gemini""#), "\(line)")
        #expect(await server.requests(to: .gemini).first?.path == "/v1/pubticker/btcusd")
      }
    }

    @Test func sourcesAndTheirURLsComeFromTheEnvironment() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.kraken, .kraken(price: "68870.10"))

        let run = try BinaryProcess(
          ["--once", "--json", "--no-cache"],
          environment: [
            "BTC_PRICE_SOURCES": "kraken",
            "BTC_PRICE_KRAKEN_URL": server.url(for: .kraken).absoluteString,
          ])

        #expect(await run.waitForExit() == 0)
        #expect(run.stdoutText.first?.contains(#""source":"kraken""#) == true)
        #expect(
          await server.requests(to: .kraken).first?.headers["user-agent"]?.hasPrefix("btc-price/")
            == true)
      }
    }

    @Test(arguments: [
      (["--sources", "binance,ftx"], "unknown source \"ftx\""),
      (["--sources", "coinbase,binance,coinbase"], "coinbase is listed twice"),
      (["--sources", ""], "unknown source \"\""),
      (["--kraken-url", "kraken.com"], "--kraken-url needs an http or https URL"),
    ])
    func badSourceOptions_exitWithUsageErrorNamingTheProblem(arguments: [String], message: String)
      async throws
    {
      let run = try BinaryProcess(arguments + ["--no-cache", "--once"])

      #expect(await run.waitForExit() == 64)
      #expect(run.stdoutText.isEmpty)
      #expect(run.stderrText.contains(message), "\(run.stderrText)")
    }

    @Test func verbose_logsEachAttemptAndCircuitChangeOnStderrOnly() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, FakeResponse(status: 502, json: "{}"))
        await server.stub(.coinbase, .coinbase(price: "68880.55"))

        let run = try BinaryProcess(
          [
            "--verbose", "--count", "3", "--interval", "0.5", "--sources", "binance,coinbase",
            "--no-cache",
          ] + server.urlArguments)

        #expect(await run.waitForExit() == 0)
        #expect(run.stdoutText.count == 3)
        #expect(run.stdoutText.allSatisfy { $0.hasSuffix(" - $68,880.55") })
        let log = run.stderrText
        #expect(log.contains("binance failed after"), "\(log)")
        #expect(log.contains("HTTP 502"))
        #expect(log.contains("coinbase delivered 68880.55 in"))
        #expect(log.contains("binance circuit closed -> open for 5 s"))
      }
    }

    // MARK: - The cache under faults

    @Test func sigkillAtRandomMoments_neverLeavesATornCacheFile() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"), .binance(price: "68902.34"))
        var checked = 0
        for round in 0..<15 {
          let run = try BinaryProcess(
            [
              "--interval", "0.05", "--sources", "binance", "--cache-path", cacheURL.path,
            ] + server.urlArguments)
          // The first write is the one most at risk of being caught half-done.
          try await Task.sleep(for: .milliseconds(Int.random(in: 30...300)))
          run.send(SIGKILL)
          _ = await run.waitForExit()

          guard FileManager.default.fileExists(atPath: cacheURL.path) else {
            // Killed before its first write; but once written, the file must never disappear.
            #expect(checked == 0, "the cache file vanished in round \(round)")
            continue
          }
          let quote = try FilePriceStore(
            fileURL: cacheURL, knownSources: PriceSourceRegistry.sources
          ).load()
          #expect(quote?.source.id == "binance")
          checked += 1
        }
        #expect(checked >= 10)
      }
    }

    @Test func twoInstancesSharingOneCache_neverCorruptIt() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))
        let arguments =
          [
            "--interval", "0.05", "--count", "40", "--sources", "binance", "--cache-path",
            cacheURL.path,
          ]
          + server.urlArguments
        let first = try BinaryProcess(arguments)
        let second = try BinaryProcess(arguments)

        var reads = 0
        let deadline = ContinuousClock.now + .seconds(10)
        while first.isRunning || second.isRunning, ContinuousClock.now < deadline {
          if let quote = try FilePriceStore(
            fileURL: cacheURL, knownSources: PriceSourceRegistry.sources
          ).load() {
            #expect(quote.value == Decimal(string: "68901.23"))
            reads += 1
          }
          try await Task.sleep(for: .milliseconds(2))
        }

        // 0 or 1: at 50 ms a tick may miss its deadline on a loaded machine; that is not a fault here.
        #expect(await first.waitForExit() <= 1)
        #expect(await second.waitForExit() <= 1)
        #expect(reads > 50)
        #expect(
          try FilePriceStore(fileURL: cacheURL, knownSources: PriceSourceRegistry.sources).load()?
            .value == Decimal(string: "68901.23"))
        #expect(first.stderrText.isEmpty && second.stderrText.isEmpty)
      }
    }
  }
}
