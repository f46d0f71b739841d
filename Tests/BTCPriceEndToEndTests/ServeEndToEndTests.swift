import BTCPriceTestSupport
import Foundation
import NIOCore
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `btc-price serve`, the built binary, against the fake exchange, over real HTTP.
extension BinaryEndToEndTests {
  @Suite(
    "btc-price serve end to end", .serialized, .timeLimit(.minutes(2)), .hangLimit(.seconds(30)))
  final class ServeEndToEndTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "btc-price-serve-\(UUID().uuidString)")
    var cachePath: String { folder.appendingPathComponent("last-price.json").path }

    deinit {
      try? FileManager.default.removeItem(at: folder)
    }

    @Test func apiPrice_isTheJSONLineOfTheCommandLine_andViewersCauseNoRequests() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))
        let (run, base) = try await serve(server, "--interval", "0.5")
        defer { run.send(SIGKILL) }

        let first = try await waitForPrice(base, from: run)
        let requestsBefore = await server.requests(to: .binance).count
        let started = ContinuousClock.now
        for _ in 0..<20 {
          _ = try await get(base + "/api/price", from: run)
          _ = try await get(base + "/", from: run)
        }
        let ticks = Int((ContinuousClock.now - started) / .milliseconds(500)) + 2
        #expect(await server.requests(to: .binance).count - requestsBefore <= ticks)

        let once = try BinaryProcess(
          ["--once", "--json", "--no-cache", "--sources", "binance"] + server.urlArguments)
        #expect(await once.waitForExit() == 0)
        let line = try #require(once.stdoutText.first)
        #expect(withoutTimestamp(first.body) == withoutTimestamp(line + "\n"))
        #expect(first.headers["cache-control"] == "public, max-age=1")
        #expect(first.headers["etag"] != nil)
      }
    }

    @Test func sigterm_endsEveryStreamAndExitsWithinASecond_withTheCacheSaved() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))
        let (run, base) = try await serve(server, "--cache-path", cachePath, cache: true)
        defer { run.send(SIGKILL) }
        _ = try await waitForPrice(base, from: run)

        let stream = try await HTTPStreamReader.open(base + "/api/stream")
        #expect(stream.headers["content-type"] == "text/event-stream; charset=utf-8")
        var received = ""
        var body = stream.body.makeAsyncIterator()
        while !received.contains("event: price"), let chunk = try await body.next() {
          received += String(buffer: chunk)
        }
        #expect(received.contains(#""price":"68901.23""#), "\(received)")

        let signalled = ContinuousClock.now
        run.send(SIGTERM)
        // The stream ends cleanly (its last chunk; a connection closed before it throws) ...
        while let chunk = try await body.next() { received += String(buffer: chunk) }
        let status = await run.waitForExit()
        let exitTime = ContinuousClock.now - signalled

        #expect(status == 0)
        #expect(exitTime < .seconds(1), "exit took \(exitTime)")
        let cache = try String(contentsOfFile: cachePath, encoding: .utf8)
        #expect(cache.contains(#""price":"68901.23""#), "\(cache)")
      }
    }

    @Test func sigint_exitsWith130() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))
        let (run, base) = try await serve(server)
        _ = try await waitForPrice(base, from: run)

        let signalled = ContinuousClock.now
        run.send(SIGINT)

        #expect(await run.waitForExit() == 130)
        #expect(ContinuousClock.now - signalled < .seconds(1))
      }
    }

    @Test func aPortInUse_isReportedWithStatusOne() async throws {
      try await FakeExchangeServer.withRunning { server in
        // The fake exchange's own port is taken.
        let run = try BinaryProcess(
          ["serve", "--port", "\(server.port)", "--no-cache"] + server.urlArguments)

        #expect(await run.waitForExit() == 1)
        #expect(
          run.stderrText.contains("cannot serve on 127.0.0.1:\(server.port)"), "\(run.stderrText)")
      }
    }

    // MARK: -

    private func serve(_ server: FakeExchangeServer, _ extra: String..., cache: Bool = false)
      async throws -> (BinaryProcess, String)
    {
      let run = try BinaryProcess(
        ["serve", "--port", "0", "--sources", "binance"] + (cache ? [] : ["--no-cache"]) + extra
          + server.urlArguments)
      guard await run.waitForLines(1), let address = run.serveAddress else {
        run.send(SIGKILL)
        throw ServeDidNotStart(stdout: run.stdoutText, stderr: run.stderrText)
      }
      return (run, address)
    }

    private struct ServeDidNotStart: Error {
      let stdout: [String]
      let stderr: String
    }

    private struct Answer {
      let status: Int
      /// Names lowercased.
      let headers: [String: String]
      let body: String
    }

    /// A request that failed, with what the server process said and whether it still runs: a
    /// failed request alone does not say whether `serve` closed the connection or died.
    private struct RequestFailed: Error, CustomStringConvertible {
      let url: String
      let error: any Error
      let serverRunning: Bool
      let serverStderr: String

      var description: String {
        "GET \(url) failed: \(error); serve still running: \(serverRunning); "
          + "its stderr: \(serverStderr.isEmpty ? "(empty)" : serverStderr)"
      }
    }

    private func get(_ url: String, from run: BinaryProcess) async throws -> Answer {
      do {
        let answer = try await fetch(url)
        return Answer(status: answer.status, headers: answer.headers, body: answer.body)
      } catch {
        throw RequestFailed(
          url: url, error: error, serverRunning: run.isRunning, serverStderr: run.stderrText)
      }
    }

    /// `/api/price` once the first tick has delivered a price.
    private func waitForPrice(_ base: String, from run: BinaryProcess) async throws -> Answer {
      let deadline = ContinuousClock.now + .seconds(10)
      while true {
        let answer = try await get(base + "/api/price", from: run)
        let fresh =
          answer.body.contains(#""stale":false"#) && !answer.body.contains(#""price":null"#)
        if fresh || ContinuousClock.now > deadline {
          return answer
        }
        try await Task.sleep(for: .milliseconds(50))
      }
    }

    private func withoutTimestamp(_ line: String) -> String {
      line.replacing(#/"timestamp":"[^"]+"/#, with: #""timestamp":"…""#)
    }
  }
}
