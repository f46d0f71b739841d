import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs the built `btc-price` binary against the fake exchange on 127.0.0.1.
extension BinaryEndToEndTests {
  @Suite("btc-price end to end", .serialized, .timeLimit(.minutes(2)), .hangLimit(.seconds(30)))
  final class CommandLineEndToEndTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "btc-price-e2e-\(UUID().uuidString)")
    var cachePath: String { folder.appendingPathComponent("cache/last-price.json").path }
    let linePattern = #/^[A-Z][a-z]{2} \d{1,2}, \d{2}:\d{2}:\d{2} - \$68,901\.23$/#

    deinit {
      try? FileManager.default.removeItem(at: folder)
    }

    @Test func once_printsTimestampDashPriceAndExitsZero() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))

        let run = try BinaryProcess(arguments(server, "--once"))
        let status = await run.waitForExit()

        #expect(status == 0)
        #expect(run.stdoutText.count == 1)
        #expect(
          try linePattern.wholeMatch(in: try #require(run.stdoutText.first)) != nil,
          "\(run.stdoutText)")
        #expect(run.stderrText.isEmpty)
      }
    }

    /// The binary links no time-zone database of its own (no ICU): local time comes from the C
    /// library, which reads `TZ`, half-hour and daylight-saving offsets included.
    @Test(arguments: ["Asia/Kolkata", "America/New_York", "Australia/Adelaide", "UTC"])
    func once_showsTheTimeInTheZoneTZNames(zone: String) async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = "MMM d, HH:mm:ss"

        let before = Date()
        let run = try BinaryProcess(arguments(server, "--once"), environment: ["TZ": zone])
        let status = await run.waitForExit()
        let after = Date()

        #expect(status == 0)
        let shown = try #require(run.stdoutText.first?.split(separator: " - ").first)
        // Whole seconds from just before the start to just after the end: one of them is shown.
        let seconds = stride(
          from: before.timeIntervalSince1970.rounded(.down),
          through: after.timeIntervalSince1970.rounded(.down), by: 1)
        let candidates = seconds.map { formatter.string(from: Date(timeIntervalSince1970: $0)) }
        #expect(candidates.contains(String(shown)), "\(shown) not in \(candidates)")
      }
    }

    @Test func printsOneLinePerSecondOnAFixedScheduleWithASlowPrimary() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23", delay: .milliseconds(300)))

        let run = try BinaryProcess(arguments(server, "--count", "4", "--interval", "1"))
        let status = await run.waitForExit()

        #expect(status == 0)
        let lines = run.lines
        #expect(lines.count == 4)
        for (previous, next) in zip(lines, lines.dropFirst()) {
          let gap = next.arrivedAt - previous.arrivedAt
          #expect(gap > .milliseconds(800) && gap < .milliseconds(1200), "gap \(gap)")
        }
        #expect(await server.requests(to: .cryptoCompare).isEmpty)
      }
    }

    @Test func json_printsOneObjectPerTickWithExactPriceAndSource() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, FakeResponse(status: 503, json: "{}"))
        await server.stub(.cryptoCompare, .cryptoCompare(price: "68910.12"))

        let run = try BinaryProcess(arguments(server, "--once", "--json"))
        let status = await run.waitForExit()

        #expect(status == 0)
        let line = try #require(run.stdoutText.first)
        let object = try #require(
          try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["price"] as? String == "68910.12")
        #expect(object["currency"] as? String == "USD")
        #expect(object["source"] as? String == "cryptocompare")
        #expect(object["stale"] as? Bool == false)
        #expect(object["error"] == nil)
        let timestamp = try #require(object["timestamp"] as? String)
        #expect(try Date.ISO8601FormatStyle().parse(timestamp).timeIntervalSinceNow.magnitude < 60)
        #expect(line.hasPrefix(#"{"timestamp":""#))
      }
    }

    @Test func failedTick_showsCachedValueFromAnEarlierRunWithItsTimeAndExitsOne() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))
        let first = try BinaryProcess(arguments(server, "--once"), environment: ["TZ": "UTC"])
        #expect(await first.waitForExit() == 0)
        let shownAt = try #require(first.stdoutText.first?.split(separator: " - ").first)

        await server.stub(.binance, FakeResponse(status: 500, json: "{}"))
        await server.stub(.cryptoCompare, .cryptoCompareKeyRequired)
        let second = try BinaryProcess(arguments(server, "--once"), environment: ["TZ": "UTC"])
        let status = await second.waitForExit()

        #expect(status == 1)
        #expect(
          second.stdoutText == [
            "Failed to update value. Displaying last updated value from \(shownAt) - $68,901.23"
          ])
      }
    }

    @Test func failedTickWithNothingKnown_printsPlaceholders() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, FakeResponse(status: 500, json: "{}"))
        await server.stub(.cryptoCompare, FakeResponse(json: "<html>"))

        let run = try BinaryProcess(arguments(server, "--once", "--no-cache", cache: false))
        let status = await run.waitForExit()

        #expect(status == 1)
        #expect(
          run.stdoutText == ["Failed to update value. Displaying last updated value from - - -"])
      }
    }

    @Test func recoversAfterFailure_bannerDisappearsOnNextSuccessAndExitStatusFollowsLastTick()
      async throws
    {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(
          .binance, .binance(price: "68901.23"), FakeResponse(status: 500, json: "{}"),
          .binance(price: "68901.23"))
        await server.stub(.cryptoCompare, FakeResponse(status: 500, json: "{}"))

        let run = try BinaryProcess(arguments(server, "--count", "3", "--interval", "0.5"))
        let status = await run.waitForExit()

        #expect(status == 0)
        let text = run.stdoutText
        #expect(text.count == 3)
        #expect(try linePattern.wholeMatch(in: text[0]) != nil)
        #expect(text[1].hasPrefix("Failed to update value. Displaying last updated value from "))
        #expect(text[1].hasSuffix(" - $68,901.23"))
        #expect(try linePattern.wholeMatch(in: text[2]) != nil)
      }
    }

    @Test func corruptCache_warnsOnceOnStderrAndKeepsStdoutClean() async throws {
      try FileManager.default.createDirectory(
        atPath: (cachePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true
      )
      try Data("{garbage".utf8).write(to: URL(fileURLWithPath: cachePath))
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))

        let run = try BinaryProcess(arguments(server, "--count", "2", "--interval", "0.3"))
        let status = await run.waitForExit()

        #expect(status == 0)
        #expect(run.stdoutText.count == 2)
        #expect(
          run.stderrText.components(separatedBy: "\n").filter { $0.contains("warning") }.count == 1)
        #expect(run.stderrText.contains(cachePath))
      }
    }

    @Test func unwritableCache_warnsOnceAndKeepsTicking() async throws {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let blocker = folder.appendingPathComponent("not-a-folder")
      try Data().write(to: blocker)
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))

        let run = try BinaryProcess(
          arguments(server, "--count", "3", "--interval", "0.3", cache: false)
            + ["--cache-path", blocker.appendingPathComponent("last-price.json").path])
        let status = await run.waitForExit()

        #expect(status == 0)
        #expect(run.stdoutText.count == 3)
        #expect(
          run.stderrText.components(separatedBy: "\n").filter { $0.contains("warning") }.count == 1)
      }
    }

    /// A disk that takes no more (here the file-size limit of `ulimit -f`, which fails a write
    /// with EFBIG as a full disk fails it with ENOSPC): the failed write is said once with the
    /// system's reason, the prices go on, and no temporary file is left beside the cache.
    @Test func aDiskThatTakesNoMore_isSaidOnceWithItsReason_andLeavesNoTemporaryFile()
      async throws
    {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))

        // 16 bytes: less than the cache's record; stdout and stderr are pipes, which the limit
        // does not touch. SIGXFSZ ignored, as the limit's signal would end the tool otherwise.
        // Only the soft limit is lowered, and raised again once the failure is said, so that the
        // binary can still write its coverage file at exit (scripts/mutate reads which tests
        // run which lines from it).
        let run = try BinaryProcess.shell(
          #"exec python3 -c "$LIMIT" "$BTC_PRICE" "$@""#,
          arguments: arguments(server, "--count", "3", "--interval", "0.3"),
          environment: [
            "LIMIT": "import os, resource, signal, sys; "
              + "hard = resource.getrlimit(resource.RLIMIT_FSIZE)[1]; "
              + "resource.setrlimit(resource.RLIMIT_FSIZE, (16, hard)); "
              + "signal.signal(signal.SIGXFSZ, signal.SIG_IGN); os.execv(sys.argv[1], sys.argv[1:])"
          ])
        await eventually(within: .seconds(10), { run.stderrText.contains("File too large") })
        Self.raiseFileSizeLimit(of: run.processIdentifier)
        let status = await run.waitForExit()

        #expect(status == 0)
        #expect(run.stdoutText.count == 3)
        let warnings = run.stderrText.components(separatedBy: "\n").filter {
          $0.contains("warning")
        }
        #expect(warnings.count == 1, "\(run.stderrText)")
        #expect(warnings.first?.contains("File too large") == true, "\(run.stderrText)")
        let folder = (cachePath as NSString).deletingLastPathComponent
        let left = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(left.filter { $0.hasSuffix(".tmp") }.isEmpty, "\(left)")
      }
    }

    /// Gives process `pid` back the largest files its hard limit allows.
    private static func raiseFileSizeLimit(of pid: Int32) {
      let raise = Process()
      raise.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      raise.arguments = [
        "python3", "-c",
        "import resource, sys; pid = int(sys.argv[1]); "
          + "hard = resource.prlimit(pid, resource.RLIMIT_FSIZE)[1]; "
          + "resource.prlimit(pid, resource.RLIMIT_FSIZE, (hard, hard))",
        "\(pid)",
      ]
      try? raise.run()
      raise.waitUntilExit()
    }

    @Test func priceFormatIgnoresTheLocale() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))
        for lang in ["C", "de_DE.UTF-8", "fr_FR.UTF-8"] {
          let run = try BinaryProcess(
            arguments(server, "--once"), environment: ["LANG": lang, "LC_ALL": lang])
          #expect(await run.waitForExit() == 0)
          #expect(
            run.stdoutText.first?.hasSuffix(" - $68,901.23") == true,
            "LANG=\(lang): \(run.stdoutText)")
        }
      }
    }

    @Test func apiKeyGoesToCryptoCompareOnlyAndNeverIntoOutput() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(
          .binance, FakeResponse(status: 418, json: #"{"code":-1003,"msg":"banned"}"#))
        await server.stub(.cryptoCompare, .cryptoCompareKeyRequired)

        let run = try BinaryProcess(
          arguments(server, "--once", "--json"),
          environment: ["CRYPTOCOMPARE_API_KEY": "top-secret-key"])
        _ = await run.waitForExit()

        #expect(
          await server.requests(to: .cryptoCompare).first?.headers["authorization"]
            == "Apikey top-secret-key")
        #expect(await server.requests(to: .binance).first?.headers["authorization"] == nil)
        #expect(
          await server.requests(to: .binance).first?.headers["user-agent"]?.hasPrefix("btc-price/")
            == true)
        #expect(!run.stdoutText.joined().contains("top-secret-key"))
        #expect(!run.stderrText.contains("top-secret-key"))
      }
    }

    @Test func urlsComeFromEnvironmentWhenNoOptionIsGiven() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))

        let (_, status, runs) = try await BinaryProcess.oneShot {
          try BinaryProcess(
            ["--once", "--no-cache"],
            environment: [
              "BTC_PRICE_BINANCE_URL": server.url(for: .binance).absoluteString,
              "BTC_PRICE_CRYPTOCOMPARE_URL": server.url(for: .cryptoCompare).absoluteString,
            ])
        }

        #expect(status == 0)
        #expect(await server.requests(to: .binance).count == runs)
      }
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(0))])
    func signal_cancelsTheRequestInFlightAndExitsAtOnceWithoutNoise(
      signal: Int32, expectedStatus: Int32
    )
      async throws
    {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23", delay: .seconds(30)))
        await server.stub(.cryptoCompare, .cryptoCompare(price: "1", delay: .seconds(30)))

        let run = try BinaryProcess(
          arguments(server, "--interval", "20", "--primary-timeout", "15"))
        #expect(await server.waitForRequests(to: .binance, count: 1))
        let sent = ContinuousClock.now
        run.send(signal)
        let status = await run.waitForExit()

        #expect(status == expectedStatus)
        #expect(ContinuousClock.now - sent < .milliseconds(700))
        #expect(run.stdoutText.isEmpty)
        #expect(run.stderrText.isEmpty, "stderr: \(run.stderrText)")
      }
    }

    @Test func sigintBetweenTicks_exits130AfterTheLinesAlreadyPrinted() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))

        let run = try BinaryProcess(arguments(server, "--interval", "20"))
        #expect(await run.waitForLines(1))
        let sent = ContinuousClock.now
        run.send(SIGINT)

        #expect(await run.waitForExit() == 130)
        #expect(ContinuousClock.now - sent < .milliseconds(700))
        #expect(run.stdoutText.count == 1)
        #expect(run.stderrText.isEmpty, "stderr: \(run.stderrText)")
      }
    }

    @Test func badArguments_exitWithUsageError() async throws {
      for arguments in [
        ["--interval", "0"], ["--count", "0"], ["--binance-url", "ftp://x"],
        ["--once", "--count", "3"],
      ] {
        let run = try BinaryProcess(arguments + ["--no-cache"])
        #expect(await run.waitForExit() == 64, "\(arguments)")
        #expect(run.stdoutText.isEmpty)
        #expect(!run.stderrText.isEmpty)
      }
    }

    @Test func help_documentsEveryOptionAndEnvironmentVariable() async throws {
      let run = try BinaryProcess(["--help"])
      #expect(await run.waitForExit() == 0)
      let help = run.stdoutText.joined(separator: "\n")

      let perSource = PriceSourceRegistry.all.flatMap { definition in
        ["--\(definition.urlOptionName)", definition.source.id]
          + (definition.apiKey.map { [$0.environmentVariable] } ?? [])
      }
      for word in [
        "--interval", "--primary-timeout", "--count", "--once", "--json",
        "--cache-path", "--no-cache", "--sources",
        "--verbose", "BTC_PRICE_SOURCES", "BTC_PRICE_<NAME>_URL",
        "XDG_CACHE_HOME", "NO_COLOR", "--live", "Failed to update value",
        "EXIT STATUS", "EXAMPLES",
      ] + perSource {
        #expect(help.contains(word), "--help lacks \(word)")
      }
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScript_coversEveryOption(shell: String) async throws {
      let run = try BinaryProcess(["--generate-completion-script", shell])

      #expect(await run.waitForExit() == 0)
      let script = run.stdoutText.joined(separator: "\n")
      for name in [
        "live", "json", "binance-url", "cache-path", "primary-timeout", "sources", "verbose",
      ] {
        // bash and zsh spell options out; fish names them with `-l 'name'`.
        let spelled = shell == "fish" ? "-l '\(name)'" : "--\(name)"
        #expect(script.contains(spelled), "\(shell) completion lacks \(name)")
      }
    }

    @Test func version_printsTheVersionAndWhereItWasBuiltFrom() async throws {
      let run = try BinaryProcess(["--version"])

      #expect(await run.waitForExit() == 0)
      #expect(run.stdoutText.count == 1)
      // A release (scripts/package builds from git archive) names its commit; a checkout says
      // it cannot.
      let shape =
        #/^\d+\.\d+\.\d+ \((commit [0-9a-f]{40}( with uncommitted changes)?|built from a git checkout; commit not recorded)\)$/#
      #expect(try shape.wholeMatch(in: run.stdoutText.first ?? "") != nil)
    }

    // MARK: - Helpers

    private func arguments(_ server: FakeExchangeServer, _ extra: String..., cache: Bool = true)
      -> [String]
    {
      // A generous primary timeout: under CI load a healthy fake server can take a while to answer,
      // and these tests are about what is printed, not about deadlines. The specified two-source
      // chain unless a test asks for more. Later options win.
      ["--interval", "5", "--primary-timeout", "3", "--sources", "binance,cryptocompare"]
        + server.urlArguments + (cache ? ["--cache-path", cachePath] : []) + extra
    }

  }
}
