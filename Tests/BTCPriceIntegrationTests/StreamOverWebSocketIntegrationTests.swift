import BTCPriceCore
import BTCPriceNIO
import BTCPriceRuntime
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import NIOPosix
import Testing

/// The NIO WebSocket transport against the fake exchange's stream side over real sockets on
/// 127.0.0.1: it subscribes, delivers messages, answers pings, and ends every fault of a stream
/// with its typed error.
@Suite("Read a price stream over WebSocket", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct StreamOverWebSocketIntegrationTests {
  @Test func run_sendsTheSubscriptionAndDeliversMessagesAndAnswersPings() async throws {
    try await withStreamServer { server, connector in
      let inbound = Locked<[WebSocketInbound]>([])
      let endpoint = try PriceSourceDefinition.coinbase.streamEndpoint(
        for: .usd, base: server.url())
      let task = Task {
        await connector.run(url: endpoint.url, subscriptions: endpoint.subscriptions) { message in
          inbound.withValue { $0.append(message) }
          return nil
        }
      }
      await eventually(within: .seconds(5)) { inbound.value.count == 1 }
      server.send(FakeStreamMessage.coinbaseTicker(price: "68880.55"))
      server.ping("keep-alive")
      await eventually(within: .seconds(5)) { inbound.value.count == 3 && server.pongs == 1 }

      #expect(server.received == endpoint.subscriptions)
      #expect(inbound.value[1] == .text(FakeStreamMessage.coinbaseTicker(price: "68880.55")))
      #expect(inbound.value[2] == .ping)
      task.cancel()
      #expect(await task.value == .closed(code: nil))
    }
  }

  /// A server may speak first, its frame in the same read as the `101` answer: that frame is
  /// the first message, whole, whatever its size (it used to be dropped when small, and cut in
  /// two when over about 32 KB, its rest read as a frame of its own).
  @Test(arguments: [60, 2_000, 40_000, 65_536])
  func run_deliversAFirstFrameThatCameWithTheUpgrade(size: Int) async throws {
    try await withStreamServer { server, connector in
      let trade = FakeStreamMessage.binanceTrade(price: "68901.23")
      let first =
        String(trade.dropLast()) + #","x":""#
        + String(repeating: "a", count: max(0, size - trade.utf8.count - 7)) + #""}"#
      server.behave(.greet(first))
      let inbound = Locked<[WebSocketInbound]>([])
      let endpoint = try PriceSourceDefinition.binance.streamEndpoint(
        for: .usd, base: server.url(path: "/ws/btcusdt@trade"))
      let task = Task {
        await connector.run(url: endpoint.url, subscriptions: endpoint.subscriptions) { message in
          inbound.withValue { $0.append(message) }
          return nil
        }
      }
      await eventually(within: .seconds(5)) { !inbound.value.isEmpty }
      server.send(FakeStreamMessage.binanceTrade(price: "68902.00"))
      await eventually(within: .seconds(5)) { inbound.value.count == 2 }

      #expect(first.utf8.count == max(size, trade.utf8.count + 7))
      #expect(inbound.value.first == .text(first))
      #expect(inbound.value.last == .text(FakeStreamMessage.binanceTrade(price: "68902.00")))
      task.cancel()
      #expect(await task.value == .closed(code: nil))
    }
  }

  @Test func run_endsWithTheCloseFramesCode() async throws {
    try await expectEnding(.closed(code: 1001)) { $0.close(code: 1001) }
  }

  @Test func run_refusesAFragmentedFrame() async throws {
    try await expectEnding(.protocolViolation("fragmented frame")) {
      $0.sendForbidden(.fragmented)
    }
  }

  @Test func run_refusesACompressedFrameItDidNotNegotiate() async throws {
    try await expectEnding(.protocolViolation("compressed or extended frame (none negotiated)")) {
      $0.sendForbidden(.compressed)
    }
  }

  @Test func run_refusesTextThatIsNotUTF8() async throws {
    try await expectEnding(.protocolViolation("text frame is not UTF-8")) {
      $0.sendForbidden(.invalidUTF8)
    }
  }

  @Test func run_refusesABinaryFrame() async throws {
    try await expectEnding(.protocolViolation("binary frame")) { $0.sendForbidden(.binary) }
  }

  @Test func run_refusesAFrameLargerThanTheBoundFromItsHeader() async throws {
    try await expectEnding(.frameTooLarge(limit: PriceStreamEndpoint.maximumMessageSize)) {
      $0.sendForbidden(.oversized(bytes: 4 << 20))
    }
  }

  /// The bound is 64 KiB exactly: a message of 65,536 bytes is read, one byte more ends the
  /// connection.
  @Test func run_readsAMessageOfExactly64KiB_andRefusesOneByteMore() async throws {
    try await withStreamServer { server, connector in
      let endpoint = try PriceSourceDefinition.coinbase.streamEndpoint(
        for: .usd, base: server.url())
      let sizes = Locked<[Int]>([])
      let task = Task {
        await connector.run(url: endpoint.url, subscriptions: endpoint.subscriptions) { inbound in
          if case .text(let text) = inbound { sizes.withValue { $0.append(text.utf8.count) } }
          return nil
        }
      }
      await eventually(within: .seconds(5)) { !sizes.value.isEmpty }

      server.send(String(repeating: "x", count: 65_536))
      await eventually(within: .seconds(5)) { sizes.value.last == 65_536 }
      server.sendForbidden(.oversized(bytes: 65_537))
      let ending = await task.value

      #expect(sizes.value.last == 65_536)
      #expect(ending == .frameTooLarge(limit: 65_536))
    }
  }

  @Test func run_deliversARefusedUpgrade() async throws {
    try await withStreamServer { server, connector in
      server.behave(.refuseUpgrade)

      let ending = await connector.run(url: server.url(), subscriptions: []) { _ in nil }

      #expect(
        ending
          == .handshakeFailed(status: 403, reason: "the server refused to upgrade to WebSocket"))
    }
  }

  @Test func run_deliversUnreachableWhenNothingListens() async throws {
    let connector = NIOWebSocketConnector(group: MultiThreadedEventLoopGroup.singleton)
    let url = URL(string: "ws://127.0.0.1:\(try FakeExchangeServer.unusedPort())/")!

    let ending = await connector.run(url: url, subscriptions: []) { _ in nil }

    guard case .unreachable = ending else {
      Issue.record("expected unreachable, got \(ending)")
      return
    }
  }

  @Test func runner_putsTheStreamsTradeOnTheBoardAndReplacesAClosedConnection() async throws {
    try await withStreamServer { server, connector in
      let board = StreamPriceBoard(clock: ContinuousClock(), now: { Date() })
      let events = Locked<[PriceStreamEvent]>([])
      let runner = PriceStreamRunner(
        endpoint: try PriceSourceDefinition.binance.streamEndpoint(
          for: .usd, base: server.url(path: "/ws/btcusdt@trade")),
        connector: connector, board: board, clock: ContinuousClock(),
        backoff: ReconnectBackoff(base: .milliseconds(20), cap: .milliseconds(100)),
        onEvent: { event in events.withValue { $0.append(event) } })
      let task = Task { await runner.run() }
      // Binance sends no acknowledgement, so trades are repeated until the client has upgraded.
      server.repeat(
        { FakeStreamMessage.binanceTrade(price: "68901.23000000") }, every: .milliseconds(10))
      await eventually(within: .seconds(5)) { board.entry(for: .binance).quote != nil }

      server.close()
      await eventually(within: .seconds(5)) {
        events.value.contains(.closed(.binance, .closed(code: 1001)))
      }
      server.repeat(
        { FakeStreamMessage.binanceTrade(price: "68902.00000000") }, every: .milliseconds(10))
      await eventually(within: .seconds(5)) {
        board.freshQuote(of: .binance, within: .seconds(1))?.value == Decimal(string: "68902")!
      }

      #expect(server.connections == 2)
      server.stopRepeating()
      task.cancel()
      await task.value
    }
  }

  // MARK: Helpers

  private func expectEnding(
    _ expected: PriceStreamError, sourceLocation: SourceLocation = #_sourceLocation,
    after fault: @escaping @Sendable (FakeStreamServer) -> Void
  ) async throws {
    try await withStreamServer { server, connector in
      let endpoint = try PriceSourceDefinition.coinbase.streamEndpoint(
        for: .usd, base: server.url())
      let acknowledged = Locked(false)
      let task = Task {
        await connector.run(url: endpoint.url, subscriptions: endpoint.subscriptions) { _ in
          acknowledged.withValue { $0 = true }
          return nil
        }
      }
      // The acknowledgement proves the client upgraded: a fault sent earlier could reach it
      // while it still reads HTTP.
      await eventually(within: .seconds(5)) { acknowledged.value }

      fault(server)

      let ending = await task.value
      #expect(ending == expected, sourceLocation: sourceLocation)
    }
  }

  private func withStreamServer(
    _ body: (FakeStreamServer, NIOWebSocketConnector) async throws -> Void
  ) async throws {
    let server = try await FakeStreamServer.start()
    let connector = NIOWebSocketConnector(group: MultiThreadedEventLoopGroup.singleton)
    do {
      try await body(server, connector)
      await server.stop()
    } catch {
      await server.stop()
      throw error
    }
  }

}
