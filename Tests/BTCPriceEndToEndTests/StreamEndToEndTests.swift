import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The built binary with `--stream`, against the fake exchange's REST side and its WebSocket
/// side: ticks read the stream's newest trade and ask REST only when no stream is alive.
extension BinaryEndToEndTests {
  @Suite(
    "btc-price --stream: the exchange's trades first, REST as the fall back", .serialized,
    .timeLimit(.minutes(2)), .hangLimit(.seconds(30)))
  struct StreamEndToEndTests {
    /// REST and the stream give different prices, so each line says which one it shows.
    static let streamPrice = "70123.45"
    static let restPrice = "68880.55"

    /// Runs `body` with both fakes up: REST answers Binance with ``restPrice``; the stream is
    /// told nothing yet.
    private func withExchange(
      _ body: (FakeExchangeServer, FakeStreamServer) async throws -> Void
    ) async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: Self.restPrice))
        try await FakeStreamServer.withRunning { stream in try await body(server, stream) }
      }
    }

    private func arguments(
      _ extra: [String], server: FakeExchangeServer, stream: FakeStreamServer
    ) -> [String] {
      ["--json", "--no-cache", "--sources", "binance"] + extra + server.urlArguments
        + stream.urlArguments
    }

    @Test func healthyStream_answersEveryTickWithItsLastTrade_andRESTIsNeverAsked()
      async throws
    {
      try await withExchange { server, stream in
        stream.repeat(
          { FakeStreamMessage.binanceTrade(price: Self.streamPrice) }, every: .milliseconds(100))

        let run = try BinaryProcess(
          arguments(
            ["--stream", "--count", "10", "--interval", "0.2"], server: server, stream: stream))

        #expect(await run.waitForExit() == 0)
        let lines = run.stdoutText
        #expect(lines.count == 10)
        #expect(lines.allSatisfy { $0.contains(Self.streamPrice) }, "\(lines)")
        #expect(lines.allSatisfy { $0.contains(#""stale":false"#) }, "\(lines)")
        #expect(await server.requests(to: .binance).isEmpty)
        #expect(stream.connections == 1)
        #expect(run.stderrText.isEmpty, "\(run.stderrText)")
      }
    }

    @Test func silentStream_isReplacedByREST_withoutAFailedLine() async throws {
      try await withExchange { server, stream in
        stream.repeat(
          { FakeStreamMessage.binanceTrade(price: Self.streamPrice) }, every: .milliseconds(100))

        let run = try BinaryProcess(
          arguments(
            ["--stream", "--count", "25", "--interval", "0.2", "--verbose"], server: server,
            stream: stream))
        #expect(await run.waitForLines(2))
        stream.stopRepeating()

        #expect(await run.waitForExit() == 0)
        let lines = run.stdoutText
        #expect(lines.count == 25)
        #expect(lines.allSatisfy { $0.contains(#""stale":false"#) }, "\(lines)")
        #expect(lines.first?.contains(Self.streamPrice) == true, "\(lines)")
        // Binance's stream counts as alive 1.5 s after its last trade at this interval (the
        // least silence that counts, see StreamFirstPriceLoader.Stream.aliveBound); the 5 s run
        // outlives that.
        #expect(lines.last?.contains(Self.restPrice) == true, "\(lines)")
        #expect(await !server.requests(to: .binance).isEmpty)
        #expect(run.stderrText.contains("falling back to REST"), "\(run.stderrText)")
        #expect(run.stderrText.contains("from the binance stream"), "\(run.stderrText)")
        #expect(run.stderrText.contains("over REST"), "\(run.stderrText)")
      }
    }

    @Test func once_withStream_asksREST_andOpensNoStream() async throws {
      try await withExchange { server, stream in
        stream.repeat(
          { FakeStreamMessage.binanceTrade(price: Self.streamPrice) }, every: .milliseconds(100))

        let run = try BinaryProcess(
          arguments(["--stream", "--once"], server: server, stream: stream))

        #expect(await run.waitForExit() == 0)
        #expect(run.stdoutText.count == 1)
        #expect(run.stdoutText.first?.contains(Self.restPrice) == true, "\(run.stdoutText)")
        #expect(await server.requests(to: .binance).count == 1)
        #expect(stream.connections == 0)
      }
    }

    @Test func streamSetting_fromTheEnvironment_turnsStreamsOn() async throws {
      try await withExchange { server, stream in
        stream.repeat(
          { FakeStreamMessage.binanceTrade(price: Self.streamPrice) }, every: .milliseconds(100))

        let run = try BinaryProcess(
          arguments(["--count", "3", "--interval", "0.2"], server: server, stream: stream),
          environment: ["BTC_PRICE_STREAM": "true"])

        #expect(await run.waitForExit() == 0)
        #expect(run.stdoutText.count == 3)
        #expect(run.stdoutText.allSatisfy { $0.contains(Self.streamPrice) }, "\(run.stdoutText)")
        #expect(await server.requests(to: .binance).isEmpty)
      }
    }

    @Test func sigint_withAStreamOpen_exitsWith130WithinASecond_andClosesTheStream() async throws {
      try await withExchange { server, stream in
        stream.repeat(
          { FakeStreamMessage.binanceTrade(price: Self.streamPrice) }, every: .milliseconds(100))
        let run = try BinaryProcess(
          arguments(["--stream", "--interval", "0.2"], server: server, stream: stream))
        #expect(await run.waitForLines(2))

        let signalled = ContinuousClock.now
        run.send(SIGINT)

        #expect(await run.waitForExit() == 130)
        #expect(ContinuousClock.now - signalled < .seconds(1))
        await eventually(
          within: .seconds(15), { stream.openConnections == 0 }, "the stream was left open")
      }
    }

    @Test func serve_withStream_servesTheStreamsTrade_withoutREST_andStopsWithinASecond()
      async throws
    {
      try await withExchange { server, stream in
        stream.repeat(
          { FakeStreamMessage.binanceTrade(price: Self.streamPrice) }, every: .milliseconds(100))
        let run = try BinaryProcess(
          ["serve", "--port", "0", "--interval", "0.2"]
            + arguments(["--stream"], server: server, stream: stream).filter { $0 != "--json" })
        defer { run.send(SIGKILL) }
        #expect(await run.waitForLines(1))
        let address = try #require(run.serveAddress)
        let body = try await apiPrice(at: address) { $0.contains(Self.streamPrice) }
        #expect(body.contains(#""price":"\#(Self.streamPrice)""#), "\(body)")
        #expect(await server.requests(to: .binance).isEmpty)

        let signalled = ContinuousClock.now
        run.send(SIGTERM)

        #expect(await run.waitForExit() == 0)
        #expect(ContinuousClock.now - signalled < .seconds(1))
      }
    }
  }
}
