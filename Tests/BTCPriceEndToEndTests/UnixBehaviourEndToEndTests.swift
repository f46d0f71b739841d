import BTCPricePersistence
import BTCPriceTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The built binary where people run command-line tools: in pipes, under signals, stopped and
/// continued, restarted, with a cache and a state file left by an earlier run.
extension BinaryEndToEndTests {
  @Suite("btc-price as a Unix tool", .serialized, .timeLimit(.minutes(2)), .hangLimit(.seconds(30)))
  final class UnixBehaviourEndToEndTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "btc-price-unix-\(UUID().uuidString)")
    var cacheURL: URL { folder.appendingPathComponent("cache/last-price.json") }
    var stateHome: String { folder.appendingPathComponent("state").path }

    deinit {
      try? FileManager.default.removeItem(at: folder)
    }

    /// `btc-price | head -3` returns to the prompt, as `yes | head -3` does.
    @Test func pipeWhoseReaderExits_endsAtOnceQuietlyKilledBySIGPIPE() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))

        let run = try BinaryProcess.shell(
          #""$BTC_PRICE" "$@" | head -n 3; echo "status=${PIPESTATUS[0]}""#,
          arguments: arguments(server, "--interval", "0.05"))

        #expect(await run.waitForExit(timeout: .seconds(10)) == 0, "the pipeline ended")
        #expect(run.stdoutText.count == 4)
        #expect(run.stdoutText.prefix(3).allSatisfy { $0.hasSuffix(" - $68,901.23") })
        #expect(run.stdoutText.last == "status=141")
        #expect(run.stderrText.isEmpty, "no message for a closed pipe: \(run.stderrText)")
        #expect(try FilePriceStore(fileURL: cacheURL, knownSources: []).load() != nil)
      }
    }

    /// The help, read by nobody (`btc-price --help | true`), ends the way `yes | true` does: the
    /// tool ignores SIGPIPE only once its own writers start, after ArgumentParser has printed.
    @Test func helpIntoAPipeNobodyReads_endsKilledBySIGPIPE() async throws {
      // Started with SIGPIPE's default, as from a shell: the test process ignores it, and an
      // ignored signal stays ignored across exec (and in a shell started so).
      let run = try BinaryProcess.shell(
        #"python3 -c "$RESTORE" "$BTC_PRICE" "$@" | (exec 0<&-; sleep 0.5); "#
          + #"echo "status=${PIPESTATUS[0]}""#,
        arguments: ["--help"],
        environment: [
          "RESTORE": "import os, signal, sys; signal.signal(signal.SIGPIPE, signal.SIG_DFL); "
            + "os.execv(sys.argv[1], sys.argv[1:])"
        ])

      #expect(await run.waitForExit(timeout: .seconds(10)) == 0, "the pipeline ended")
      #expect(run.stdoutText.last == "status=141")
    }

    /// Nobody reads the pipe, so every write blocks; Ctrl-C and SIGTERM still end the tool, at
    /// once, and the last price is in the cache.
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(0))])
    func stalledReader_aSignalStillEndsTheTool(signal: Int32, expectedStatus: Int32)
      async throws
    {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))
        let pipe = try SmallPipe()

        let run = try BinaryProcess(
          arguments(server, "--interval", "0.01", "--json"), stdout: pipe.writer)
        #expect(await pipe.waitUntilFull(), "stdout never filled up")
        // The run's first price is written at once, on the disk's thread; the hard way out gives
        // a write in flight 100 ms, by design (it waits for nothing a stalled disk holds). On a
        // loaded machine that first fsync took longer (CI, Nov 28), so the signal waits for it:
        // what this checks is that the way out keeps the cache whole, not the disk's speed.
        let cache = cacheURL
        await eventually(within: .seconds(10)) {
          (try? FilePriceStore(fileURL: cache, knownSources: []).load()) != nil
        }
        let sent = ContinuousClock.now
        run.send(signal)
        let status = await run.waitForExit(timeout: .seconds(10))
        let took = ContinuousClock.now - sent

        #expect(status == expectedStatus)
        #expect(took < .seconds(1), "took \(took)")
        #expect(try FilePriceStore(fileURL: cacheURL, knownSources: []).load() != nil)
      }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func stdoutThatCannotBeWritten_saysSoOnceAndExitsWithAnIOError() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))

        let run = try BinaryProcess(arguments(server, "--interval", "0.2"), stdout: full)

        #expect(await run.waitForExit(timeout: .seconds(10)) == 74)
        #expect(
          run.stderrText == "btc-price: error: cannot write to stdout: No space left on device\n")
      }
    }

    /// Ctrl-Z and `fg` much later, or a laptop's sleep: the tick that wakes long after its slot
    /// asks the healthy exchange with a whole second, and prints no failure.
    @Test func stoppedAndContinued_printsNoFailure() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))

        let run = try BinaryProcess(arguments(server, "--interval", "0.5", "--count", "6"))
        #expect(await run.waitForLines(2))
        run.send(SIGSTOP)
        try await Task.sleep(for: .seconds(2))
        run.send(SIGCONT)

        #expect(await run.waitForExit() == 0)
        #expect(run.stdoutText.count == 6)
        #expect(!run.stdoutText.contains { $0.contains("Failed") }, "\(run.stdoutText)")
      }
    }

    /// Binance escalates bans for clients that keep asking after a 418.
    @Test func restartDuringABan_doesNotAskTheBanningSourceAgain() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(
          .binance,
          FakeResponse(
            status: 418, headers: ["Retry-After": "600"],
            json: #"{"code":-1003,"msg":"Way too many requests; IP banned."}"#))
        await server.stub(.coinbase, .coinbase(price: "68880.55"))
        let chain = ["--sources", "binance,coinbase", "--once"]

        let first = try BinaryProcess(
          arguments(server, chain), environment: ["XDG_STATE_HOME": stateHome])
        #expect(await first.waitForExit() == 0)
        let second = try BinaryProcess(
          arguments(server, chain + ["--verbose"]), environment: ["XDG_STATE_HOME": stateHome])
        #expect(await second.waitForExit() == 0)

        #expect(await server.requests(to: .binance).count == 1)
        #expect(second.stdoutText.first?.hasSuffix(" - $68,880.55") == true)
        #expect(second.stderrText.contains("binance not tried: cooling down for 10 min"))
        #expect(second.stderrText.contains("(a limit from an earlier run)"))
      }
    }

    @Test func cacheWithAMalformedPrice_isUnreadableNeverAWrongPrice() async throws {
      try FileManager.default.createDirectory(
        at: cacheURL.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(
        #"{"currency":"USD","price":"1.2.3","source":"binance","timestamp":"2026-11-22T14:03:05.250Z","version":1}"#
          .utf8
      ).write(to: cacheURL)
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, FakeResponse(status: 500, json: "{}"))
        await server.stub(.cryptoCompare, FakeResponse(status: 500, json: "{}"))

        let run = try BinaryProcess(arguments(server, "--once"))

        #expect(await run.waitForExit() == 1)
        #expect(
          run.stdoutText == ["Failed to update value. Displaying last updated value from - - -"])
        // One warning about the cache, and the one that says why no source gave a price.
        let warnings = run.stderrText.split(separator: "\n").filter { $0.contains("warning") }
        #expect(warnings.count == 2, "\(run.stderrText)")
        #expect(warnings.filter { $0.contains(cacheURL.path) }.count == 1)
        #expect(warnings.filter { $0.contains("no source has given a price") }.count == 1)
      }
    }

    /// CryptoCompare sends its keyless refusal with HTTP 200: it is left alone like a 401, with
    /// the key hint, once.
    @Test func cryptoCompareKeyErrorWith200_isARefusalWithTheKeyHint() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, FakeResponse(status: 500, json: "{}"))
        await server.stub(
          .cryptoCompare,
          FakeResponse(
            json:
              #"{"Response":"Error","Message":"You need a valid auth key or api key to access this endpoint","HasWarning":false,"Type":1,"RateLimit":{},"Data":{}}"#
          ))
        await server.stub(.coinbase, .coinbase(price: "68880.55"))

        let run = try BinaryProcess(
          arguments(
            server, "--sources", "binance,cryptocompare,coinbase", "--count", "4", "--interval",
            "0.5"))

        #expect(await run.waitForExit() == 0)
        #expect(run.stdoutText.allSatisfy { $0.hasSuffix(" - $68,880.55") })
        #expect(await server.requests(to: .cryptoCompare).count == 1)
        #expect(
          run.stderrText.components(separatedBy: "set CRYPTOCOMPARE_API_KEY").count - 1 == 1,
          "\(run.stderrText)")
      }
    }

    // MARK: The cache on the way out

    /// The cache is written at most every 10 s while the price changes; whatever way the tool
    /// ends, the newest price is in it.
    @Test(arguments: ["count", "SIGINT", "SIGTERM", "pipe"])
    func everyWayOut_leavesTheNewestPriceInTheCache(way: String) async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(
          .binance, .binance(price: "68900.01"), .binance(price: "68900.02"),
          .binance(price: "68900.03"), FakeResponse(status: 500, json: "{}"))
        await server.stub(.cryptoCompare, FakeResponse(status: 500, json: "{}"))

        let run: BinaryProcess
        switch way {
        case "count":
          run = try BinaryProcess(arguments(server, "--interval", "0.3", "--count", "3"))
        case "pipe":
          run = try BinaryProcess.shell(
            #""$BTC_PRICE" "$@" | head -n 3"#, arguments: arguments(server, "--interval", "0.3"))
        default:
          run = try BinaryProcess(arguments(server, "--interval", "0.3"))
          #expect(await run.waitForLines(3))
          run.send(way == "SIGINT" ? SIGINT : SIGTERM)
        }
        _ = await run.waitForExit()

        let cached = try FilePriceStore(fileURL: cacheURL, knownSources: []).load()
        #expect(cached?.value == Decimal(string: "68900.03"), "\(way)")
      }
    }

    // MARK: - Helpers

    private func arguments(_ server: FakeExchangeServer, _ extra: String...) -> [String] {
      arguments(server, extra)
    }

    private func arguments(_ server: FakeExchangeServer, _ extra: [String]) -> [String] {
      // A generous primary timeout: under CI load a healthy fake server can take a while to answer.
      ["--primary-timeout", "3", "--sources", "binance,cryptocompare"] + server.urlArguments
        + ["--cache-path", cacheURL.path] + extra
    }
  }
}

/// A pipe that nobody reads, as small as the system allows, so that a writer blocks soon.
struct SmallPipe {
  let reader: FileHandle
  let writer: FileHandle

  init() throws {
    let pipe = Pipe()
    reader = pipe.fileHandleForReading
    writer = pipe.fileHandleForWriting
    #if os(Linux)
      // F_SETPIPE_SZ (1031): a GNU extension Swift's Glibc module does not export.
      _ = fcntl(writer.fileDescriptor, 1031, 4096)
    #endif
  }

  /// FIONREAD. Darwin defines it as `_IOR('f', 127, int)`, a macro Swift cannot import, so the
  /// value is spelled out there: IOC_OUT (0x40000000) | sizeof(int) << 16 | 'f' << 8 | 127, the
  /// value rust-lang/libc's Apple constants also give (rust-lang/libc#1049).
  #if canImport(Darwin)
    static let bytesAvailableRequest: UInt = 0x4004_667F
  #else
    static let bytesAvailableRequest = UInt(FIONREAD)
  #endif

  /// Waits until the pipe holds data that has stopped growing for a while: the writer is blocked.
  func waitUntilFull(timeout: Duration = .seconds(20)) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    var previous: Int32 = -1
    var steady = 0
    while ContinuousClock.now < deadline {
      var available: Int32 = 0
      _ = ioctl(reader.fileDescriptor, Self.bytesAvailableRequest, &available)
      steady = available > 0 && available == previous ? steady + 1 : 0
      if steady >= 10 { return true }
      previous = available
      try? await Task.sleep(for: .milliseconds(50))
    }
    return false
  }
}
