import BTCPriceTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The threads a streaming run keeps. On Linux, once any worker of libdispatch's pool has
/// started, libdispatch's pool monitor wakes the process once a second for the rest of its life
/// (docs/PERFORMANCE.md): the tool keeps Swift's tasks on SwiftNIO's loops and takes its signals
/// on a thread of its own, so a streaming run starts none, and Ctrl-C still ends it in order.
extension BinaryEndToEndTests {
  @Suite("btc-price's threads", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
  struct ThreadsEndToEndTests {
    @Test(
      .enabled(
        if: FileManager.default.fileExists(atPath: "/proc/self/task"),
        "Linux: threads are read from /proc, and the monitor is swift-corelibs-libdispatch's"))
    func aStreamingRun_startsNoLibdispatchThread_andEndsOnCtrlCAsBefore() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68000.00"))
        let stream = try await FakeStreamServer.start()
        defer { Task { await stream.stop() } }
        stream.repeat(
          { FakeStreamMessage.binanceTrade(price: "68901.23") }, every: .milliseconds(200))
        let run = try BinaryProcess(
          ["--stream", "--sources", "binance", "--no-cache"] + server.urlArguments
            + stream.urlArguments)
        defer { run.send(SIGKILL) }
        #expect(await run.waitForLines(3), "no line in time: \(run.stderrText)")

        let names = Self.threadNames(of: run.processIdentifier)
        // libdispatch names its threads after its root queues: `com.apple.root.default-qos`,
        // `...default-qos.overcommit` (the kernel keeps their last 15 bytes).
        #expect(!names.isEmpty)
        #expect(names.allSatisfy { !$0.contains("qos") }, "libdispatch's threads: \(names)")
        #expect(names.contains("signals"), "no thread takes the signals: \(names)")
        // stdout is a pipe the test reads: each line is written at once from the loop, so
        // stdout's writer thread never starts (issue 32: one wake-up a second less).
        #expect(!names.contains("writer-stdout"), "a thread writes the lines: \(names)")

        run.send(SIGINT)
        #expect(await run.waitForExit() == 130)
        #expect(run.stdoutText.allSatisfy { $0.hasSuffix(" - $68,901.23") }, "\(run.stdoutText)")
      }
    }

    /// A one-shot (what status bars run every few seconds) starts only the threads it uses:
    /// one shared loop for the glue, its own loop and the signals'; no thread pool for an
    /// address written as numbers, no libdispatch. Seen while its request is outstanding.
    @Test(
      .enabled(
        if: FileManager.default.fileExists(atPath: "/proc/self/task"),
        "Linux: threads are read from /proc, and the monitor is swift-corelibs-libdispatch's"))
    func aOneShot_startsOneSharedLoopAndNoThreadPool() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23", delay: .milliseconds(600)))
        let run = try BinaryProcess(
          ["--once", "--sources", "binance", "--no-cache", "--no-history"] + server.urlArguments)
        defer { run.send(SIGKILL) }
        #expect(await server.waitForRequests(to: .binance, count: 1), "never asked")

        let names = Self.threadNames(of: run.processIdentifier)
        #expect(names.filter { $0.hasPrefix("NIO-SGLTN") }.count == 1, "\(names)")
        #expect(names.allSatisfy { !$0.contains("TP-") && !$0.contains("qos") }, "\(names)")
        #expect(await run.waitForExit() == 0)
        #expect(run.stdoutText.count == 1 && run.stdoutText[0].hasSuffix(" - $68,901.23"))
      }
    }

    private static func threadNames(of process: Int32) -> [String] {
      let tasks = "/proc/\(process)/task"
      let ids = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
      return ids.compactMap { id in
        (try? String(contentsOfFile: "\(tasks)/\(id)/comm", encoding: .utf8))?
          .trimmingCharacters(in: .newlines)
      }.sorted()
    }
  }
}
