import BTCPriceCore
import BTCPricePersistence
import BTCPriceRuntime
import BTCPriceTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The built binary with stdout blocked, as a paused pager, Ctrl-S or a full pipe nobody reads
/// block it: the event loop that reads the stream never waits for stdout, so the stream keeps
/// answering the exchange's pings on the one connection it has, the cache keeps being written,
/// memory stays bounded, and the output resumes in order once the reader is back.
extension BinaryEndToEndTests {
  @Suite(
    "btc-price with stdout blocked", .serialized, .timeLimit(.minutes(2)),
    // The block alone takes 15 s.
    .hangLimit(.seconds(60)))
  final class BlockedStdoutEndToEndTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "btc-price-blocked-\(UUID().uuidString)")
    var cacheURL: URL { folder.appendingPathComponent("last-price.json") }

    deinit {
      try? FileManager.default.removeItem(at: folder)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status")))
    func stdoutBlockedFor15Seconds_keepsTheStreamAnsweringPingsOnOneConnection() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68000.00"))
        let stream = try await FakeStreamServer.start()
        defer { Task { await stream.stop() } }
        // As the exchanges do: a ping every second, and a connection whose pong is 5 s late
        // is closed. A rising trade price, so that the order of lines shows in their prices.
        stream.keepAlive(pingEvery: .seconds(1), pongWithin: .seconds(5))
        let trades = Locked(0)
        stream.repeat(
          {
            let cents = trades.withValue { count in
              count += 1
              return count
            }
            return FakeStreamMessage.binanceTrade(price: Self.price(cents: cents))
          }, every: .milliseconds(20))
        let pipe = try SmallPipe()

        // --verbose says each tick's price on stderr, which nobody blocks: the ticks are
        // counted there while stdout is blocked.
        let run = try BinaryProcess(
          [
            "--stream", "--sources", "binance", "--interval", "0.01", "--primary-timeout", "3",
            "--cache-path", cacheURL.path, "--verbose",
          ] + server.urlArguments + stream.urlArguments, stdout: pipe.writer)
        defer { run.send(SIGKILL) }
        #expect(await pipe.waitUntilFull(), "stdout never filled up")

        // Blocked: nobody reads for 15 s, and until more lines than stdout keeps were printed
        // (a loaded machine ticks less often than 100 times a second).
        let (pongs, cached, ticks) = (stream.pongs, try cachedPrice(), ticksSaid(run))
        let residentAtStart = try #require(ProcessMemory.residentBytes(of: run.processIdentifier))
        var residentMost = residentAtStart
        let blocked = ContinuousClock.now
        while ContinuousClock.now - blocked < .seconds(15)
          || (ticksSaid(run) - ticks < 1_300 && ContinuousClock.now - blocked < .seconds(40))
        {
          try await Task.sleep(for: .seconds(1))
          residentMost = max(
            residentMost, ProcessMemory.residentBytes(of: run.processIdentifier) ?? 0)
        }
        let pongsWhileBlocked = stream.pongs - pongs
        let cachedAfter = try cachedPrice()
        let ticksWhileBlocked = ticksSaid(run) - ticks
        let blockedFor = ContinuousClock.now - blocked
        #expect(ticksWhileBlocked >= 1_300, "the ticks went on while stdout was blocked")

        #expect(pongsWhileBlocked >= 10, "pongs while stdout was blocked: \(pongsWhileBlocked)")
        #expect(stream.connections == 1, "the stream reconnected: \(stream.connections)")
        #expect(stream.closedForLatePong == 0)
        #expect(cachedAfter != cached, "the cache was not written while blocked: \(cachedAfter)")
        #expect(
          residentMost - residentAtStart < 16 << 20,
          "RSS grew from \(residentAtStart >> 20) to \(residentMost >> 20) MiB while blocked")

        // The reader is back.
        let reader = PipeReader(pipe.reader)
        await eventually(within: .seconds(20)) { reader.lines.count > 1_000 }
        run.send(SIGINT)
        #expect(await run.waitForExit() == 130)
        #expect(stream.connections == 1, "a second connection once the reader was back")
        let prices = reader.lines.compactMap(Self.price(inLine:))
        #expect(prices.count == reader.lines.count, "a line that is no price: \(reader.lines)")
        #expect(prices == prices.sorted(), "the lines came out of order")
        let notices = run.stderrText.split(separator: "\n").filter {
          $0.hasPrefix("btc-price: warning: stdout was blocked, so its ")
            && $0.hasSuffix(" oldest waiting lines were left out; the newest 1000 follow")
        }
        #expect(notices.count == 1, "\(run.stderrText)")
        print(
          "blocked \(blockedFor): \(ticksWhileBlocked) ticks, "
            + "\(pongsWhileBlocked) pongs, \(stream.connections) connection, "
            + "RSS \(residentAtStart >> 10) KiB at the start, at most \(residentMost >> 10) KiB; "
            + "\(reader.lines.count) lines read after it; \(notices.first ?? "no notice")")
      }
    }

    // MARK: - Helpers

    /// How many ticks `--verbose` has said so far (`price 68000.42 from the binance stream`).
    private func ticksSaid(_ run: BinaryProcess) -> Int {
      run.stderrText.components(separatedBy: " from the binance stream\n").count - 1
    }

    private func cachedPrice() throws -> Decimal? {
      try FilePriceStore(fileURL: cacheURL, knownSources: []).load()?.value
    }

    private static func price(cents: Int) -> String {
      "\(68_000 + cents / 100).\(String(format: "%02d", cents % 100))"
    }

    /// `Nov 22, 14:03:05 - $68,000.42` → 68000.42.
    private static func price(inLine line: String) -> Decimal? {
      guard let dollar = line.range(of: " - $") else { return nil }
      return Decimal(string: line[dollar.upperBound...].replacingOccurrences(of: ",", with: ""))
    }
  }
}

/// Reads a pipe to its end on a thread of its own, line by line.
private final class PipeReader: Sendable {
  private let state = Locked((lines: [String](), partial: ""))

  init(_ handle: FileHandle) {
    Thread { [state] in
      while true {
        let data = handle.availableData
        if data.isEmpty { return }
        state.withValue { state in
          let text = state.partial + String(decoding: data, as: UTF8.self)
          var parts = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
          state.partial = parts.removeLast()
          state.lines += parts
        }
      }
    }.start()
  }

  var lines: [String] { state.value.lines }
}
