import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// OKX through the built binary, against the fake exchange's REST side and its WebSocket side:
/// its ticker over REST, its `tickers` push over the stream, and a quiet connection kept open with
/// OKX's text `ping` and `pong`.
extension BinaryEndToEndTests {
  @Suite(
    "btc-price with OKX: REST, the stream, and its keep-alive", .serialized,
    .timeLimit(.minutes(2)), .hangLimit(.seconds(40)))
  struct OKXEndToEndTests {
    /// REST and the stream give different prices, so each line says which one it shows.
    static let streamPrice = "70123.45"
    static let restPrice = "68880.55"

    private func withExchange(
      _ body: (FakeExchangeServer, FakeStreamServer) async throws -> Void
    ) async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.okx, .okx(price: Self.restPrice))
        try await FakeStreamServer.withRunning { stream in try await body(server, stream) }
      }
    }

    private func arguments(
      _ extra: [String], server: FakeExchangeServer, stream: FakeStreamServer
    ) -> [String] {
      ["--json", "--no-cache", "--sources", "okx"] + extra + server.urlArguments
        + stream.urlArguments
    }

    @Test func rest_asksOKXsTickerForBTCUSDT_andShowsItAsUSD() async throws {
      try await withExchange { server, stream in
        let run = try BinaryProcess(arguments(["--once"], server: server, stream: stream))

        #expect(await run.waitForExit() == 0)
        let line = try #require(run.stdoutText.first, "\(run.stderrText)")
        #expect(
          line.contains(#""price":"\#(Self.restPrice)","currency":"USD","source":"okx""#),
          "\(line)")
        let request = try #require(await server.requests(to: .okx).first)
        #expect(request.path == "/api/v5/market/ticker")
        #expect(request.query == "instId=BTC-USDT")
        #expect(stream.connections == 0)
      }
    }

    @Test func stream_answersEveryTickWithTheLastPriceOfItsTickers_andRESTIsNeverAsked()
      async throws
    {
      try await withExchange { server, stream in
        stream.repeat(
          { FakeStreamMessage.okxTicker(price: Self.streamPrice) }, every: .milliseconds(100))

        let run = try BinaryProcess(
          arguments(
            ["--stream", "--count", "8", "--interval", "0.2"], server: server, stream: stream))

        #expect(await run.waitForExit() == 0)
        let lines = run.stdoutText
        #expect(lines.count == 8)
        #expect(
          lines.allSatisfy {
            $0.contains(#""price":"\#(Self.streamPrice)","currency":"USD","source":"okx""#)
          }, "\(lines)")
        #expect(await server.requests(to: .okx).isEmpty)
        #expect(
          stream.received.first
            == #"{"op":"subscribe","args":[{"channel":"tickers","instId":"BTC-USDT"}]}"#)
        #expect(stream.connections == 1)
        #expect(run.stderrText.isEmpty, "\(run.stderrText)")
      }
    }

    @Test func stream_tickersOfAnotherInstrument_areNeverShown() async throws {
      try await withExchange { server, stream in
        stream.repeat(
          { FakeStreamMessage.okxTicker(price: "3000.00", instrument: "ETH-USDT") },
          every: .milliseconds(100))

        let run = try BinaryProcess(
          arguments(
            ["--stream", "--count", "5", "--interval", "0.2"], server: server, stream: stream))

        #expect(await run.waitForExit() == 0)
        let lines = run.stdoutText
        #expect(lines.count == 5)
        #expect(!lines.contains { $0.contains("3000") }, "\(lines)")
        #expect(lines.allSatisfy { $0.contains(Self.restPrice) }, "\(lines)")
      }
    }

    /// OKX closes a connection that has pushed nothing for 30 s unless the client sends `ping`.
    /// After one ticker the fake says nothing more but `pong` when pinged: the binary asks once
    /// the connection has been silent for its 5 s limit and keeps it, where a stream without a
    /// keep-alive would have been dropped at 5 s and redialled.
    @Test func stream_aQuietConnectionIsPingedAfterItsSilenceLimit_andKept() async throws {
      try await withExchange { server, stream in
        let run = try BinaryProcess(
          arguments(
            ["--stream", "--count", "16", "--interval", "0.5"], server: server, stream: stream))
        await eventually(within: .seconds(10)) { !stream.received.isEmpty }
        stream.send(FakeStreamMessage.okxTicker(price: Self.streamPrice))

        #expect(await run.waitForExit(timeout: .seconds(30)) == 0)
        let lines = run.stdoutText
        #expect(lines.count == 16)
        #expect(lines.allSatisfy { $0.contains(#""stale":false"#) }, "\(lines)")
        #expect(lines.contains { $0.contains(Self.streamPrice) }, "\(lines)")
        #expect(stream.received.contains("ping"), "\(stream.received)")
        #expect(stream.connections == 1)
      }
    }
  }
}
