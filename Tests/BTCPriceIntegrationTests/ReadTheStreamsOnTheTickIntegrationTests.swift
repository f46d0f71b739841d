import BTCPriceCore
import BTCPriceNIO
import BTCPriceRuntime
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import NIOPosix
import Testing

/// Read on the tick: once subscribed, a connection reads nothing on its own; what the exchange
/// sent waits in the kernel until a drain reads it (docs/PERFORMANCE.md, "Streams": one wake-up
/// a tick instead of one a message). Real sockets on 127.0.0.1.
@Suite(
  "Read a price stream's buffered frames when drained", .timeLimit(.minutes(1)),
  .hangLimit(.seconds(30)))
struct ReadTheStreamsOnTheTickIntegrationTests {
  @Test func drain_putsWhatArrivedSinceTheLastDrainOnTheBoard_andReadsOnlyTheFirstFrameBefore()
    async throws
  {
    try await withStreamServer { server, client in
      let board = StreamPriceBoard(clock: ContinuousClock(), now: { Date() })
      let endpoint = try PriceSourceDefinition.coinbase.streamEndpoint(
        for: .usd, base: server.url())
      let runner = PriceStreamRunner(
        endpoint: endpoint, connector: client.connector, board: board, clock: ContinuousClock())
      let task = Task { await runner.run() }
      await eventually(within: .seconds(5)) { server.received == endpoint.subscriptions }
      await server.deliver(FakeStreamMessage.coinbaseTicker(price: "68880.55"))
      await client.settle()

      #expect(board.entry(for: .coinbase).quote == nil)
      await client.connector.drain()
      #expect(board.entry(for: .coinbase).quote?.value == Decimal(string: "68880.55")!)

      if Self.isDatedByTheKernel {
        // The kernel dates each frame: nothing is read between two drains.
        await server.deliver(FakeStreamMessage.coinbaseTicker(price: "68881.00"))
        await client.settle()
        #expect(board.entry(for: .coinbase).quote?.value == Decimal(string: "68880.55")!)
      } else {
        // The first frame after a drain is read as it arrives (its time is when it came); the
        // ones after it wait for the next drain.
        server.send(FakeStreamMessage.coinbaseTicker(price: "68881.00"))
        await eventually(within: .seconds(5)) {
          board.entry(for: .coinbase).quote?.value == Decimal(string: "68881.00")!
        }
      }
      await server.deliver(FakeStreamMessage.coinbaseTicker(price: "68882.10"))
      await server.deliver(FakeStreamMessage.coinbaseTicker(price: "68883.20"))
      await client.settle()
      #expect(
        board.entry(for: .coinbase).quote?.value
          == Decimal(string: Self.isDatedByTheKernel ? "68880.55" : "68881.00")!)
      await client.connector.drain()
      #expect(board.entry(for: .coinbase).quote?.value == Decimal(string: "68883.20")!)
      task.cancel()
      await task.value
    }
  }

  @Test func drain_answersThePingsThatArrivedSinceTheLastDrain() async throws {
    try await withStreamServer { server, client in
      let inbound = Locked<[WebSocketInbound]>([])
      let task = try await open(server, client.connector, into: inbound)
      await server.deliverPing("keep-alive")
      await client.settle()

      #expect(server.pongs == 0)
      await client.connector.drain()
      #expect(inbound.value.last == .ping)
      await eventually(within: .seconds(5)) { server.pongs == 1 }
      task.cancel()
      #expect(await task.value == .closed(code: nil))
    }
  }

  @Test func drain_endsTheConnectionWithTheCloseFrameThatArrivedSinceTheLastDrain() async throws {
    try await withStreamServer { server, client in
      let inbound = Locked<[WebSocketInbound]>([])
      let ended = Locked<PriceStreamError?>(nil)
      let task = try await open(server, client.connector, into: inbound) { ending in
        ended.withValue { $0 = ending }
      }
      await server.deliverClose(code: 1001)
      await client.settle()

      #expect(ended.value == nil)
      await client.connector.drain()
      #expect(await task.value == .closed(code: 1001))
    }
  }

  @Test func drain_endsAtOnceWhenTheKernelHoldsNothing_withoutWaitingForItsBound() async throws {
    try await withStreamServer(drainBound: .seconds(10)) { server, client in
      let inbound = Locked<[WebSocketInbound]>([])
      let task = try await open(server, client.connector, into: inbound)
      await client.connector.drain()
      let before = inbound.value.count
      let clock = ContinuousClock()

      let took = await clock.measure { await client.connector.drain() }

      // Half the drain's bound: room for the shared pool's stalls in a full run on two cores.
      #expect(took < .seconds(5))
      #expect(inbound.value.count == before)
      // A frame that comes later is read by the next drain where the kernel dates it, else as
      // it arrives (the read stays asked for).
      await server.deliver(FakeStreamMessage.coinbaseTicker(price: "68884.00"))
      if Self.isDatedByTheKernel {
        await client.settle()
        #expect(inbound.value.count == before)
        await client.connector.drain()
      }
      await eventually(within: .seconds(5)) { inbound.value.count == before + 1 }
      task.cancel()
      _ = await task.value
    }
  }

  @Test func drain_withALongBound_stillReadsWhatTheKernelHolds() async throws {
    try await withStreamServer(drainBound: .seconds(10)) { server, client in
      let inbound = Locked<[WebSocketInbound]>([])
      let task = try await open(server, client.connector, into: inbound)
      await client.connector.drain()
      let before = inbound.value.count
      await server.deliver(FakeStreamMessage.coinbaseTicker(price: "68885.00"))
      // Read on arrival where the kernel cannot date it: the first frame after a drain.
      let early = Self.isDatedByTheKernel ? 0 : 1
      if Self.isDatedByTheKernel {
        await client.settle()
      } else {
        await eventually(within: .seconds(5)) { inbound.value.count == before + early }
      }
      #expect(inbound.value.count == before + early)
      await server.deliver(FakeStreamMessage.coinbaseTicker(price: "68886.00"))
      await client.settle()
      #expect(inbound.value.count == before + early)

      let took = await ContinuousClock().measure { await client.connector.drain() }

      #expect(inbound.value.count == before + 2)
      #expect(took < .seconds(5))  // half the drain's bound, as above
      task.cancel()
      _ = await task.value
    }
  }

  /// Linux only: its TCP_INFO says when a connection's data came (`tcpi_last_data_recv`);
  /// Darwin's `tcp_connection_info` has no such field, so there the first frame after a drain is
  /// read as it arrives, which the first test of this suite checks.
  @Test(
    .enabled(
      if: ReadTheStreamsOnTheTickIntegrationTests.isDatedByTheKernel,
      "Linux only: TCP_INFO's tcpi_last_data_recv dates the data; Darwin cannot (the first test)"
    ))
  func drain_datesEachMessageWhenItReachedTheMachine_notWhenTheTickReadIt() async throws {
    try await withStreamServer { server, client in
      let board = StreamPriceBoard(clock: ContinuousClock(), now: { Date() })
      let endpoint = try PriceSourceDefinition.coinbase.streamEndpoint(
        for: .usd, base: server.url())
      let runner = PriceStreamRunner(
        endpoint: endpoint, connector: client.connector, board: board, clock: ContinuousClock())
      let task = Task { await runner.run() }
      await eventually(within: .seconds(5)) { server.received == endpoint.subscriptions }
      await client.connector.drain()
      let sent = Date()
      await server.deliver(FakeStreamMessage.coinbaseTicker(price: "68887.00"))
      // Let the message age on the machine before the tick reads it.
      try await Task.sleep(for: .milliseconds(500))

      await client.connector.drain()

      #expect(board.entry(for: .coinbase).quote?.value == Decimal(string: "68887.00")!)
      let silence = try #require(board.silence(of: .coinbase))
      #expect(silence >= .milliseconds(400), "dated when the drain read it: \(silence)")
      let stamp = try #require(board.entry(for: .coinbase).quote?.timestamp)
      #expect(abs(stamp.timeIntervalSince(sent)) < 0.1, "\(stamp) against \(sent)")
      task.cancel()
      await task.value
    }
  }

  // MARK: Helpers

  /// Where the kernel tells when a connection's data came (Linux), nothing is read between
  /// drains; elsewhere the first frame after a drain is read as it arrives.
  fileprivate static var isDatedByTheKernel: Bool {
    #if os(Linux)
      true
    #else
      false
    #endif
  }

  /// Opens a Coinbase stream and returns once the server has its subscription and its
  /// acknowledgement has been read; `onEnd` hears how it ended.
  private func open(
    _ server: FakeStreamServer, _ connector: NIOWebSocketConnector,
    into inbound: Locked<[WebSocketInbound]>,
    onEnd: @escaping @Sendable (PriceStreamError) -> Void = { _ in }
  ) async throws -> Task<PriceStreamError, Never> {
    let endpoint = try PriceSourceDefinition.coinbase.streamEndpoint(for: .usd, base: server.url())
    let task = Task {
      let ending = await connector.run(url: endpoint.url, subscriptions: endpoint.subscriptions) {
        message in
        inbound.withValue { $0.append(message) }
        return nil
      }
      onEnd(ending)
      return ending
    }
    await eventually(within: .seconds(5)) { server.received == endpoint.subscriptions }
    // The subscription's acknowledgement comes once the connection has stopped reading on its
    // own: drained here, so that every test starts with nothing sent and nothing unread.
    for _ in 0..<250 where inbound.value.isEmpty {
      await connector.drain()
      if inbound.value.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
    }
    #expect(inbound.value.count == 1, "the subscription's acknowledgement: \(inbound.value)")
    return task
  }

  /// The client side: a connector on an event loop of its own, so a test can let that loop handle
  /// everything that has arrived before it looks at what was read.
  private struct Client {
    let connector: NIOWebSocketConnector
    let group: MultiThreadedEventLoopGroup

    /// Returns once the client's loop has handled every event due when called. After
    /// ``FakeStreamServer/deliver(_:)`` the bytes are in the client's kernel, so a connection
    /// that reads on its own has read them by then: what it has not read, it would not read.
    func settle() async {
      try? await group.next().submit {}.get()
    }
  }

  private func withStreamServer(
    drainBound: Duration = .milliseconds(2),
    _ body: (FakeStreamServer, Client) async throws -> Void
  ) async throws {
    let server = try await FakeStreamServer.start()
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let client = Client(
      connector: NIOWebSocketConnector(group: group, readOnTick: true, drainBound: drainBound),
      group: group)
    do {
      try await body(server, client)
      await server.stop()
      try await group.shutdownGracefully()
    } catch {
      await server.stop()
      try await group.shutdownGracefully()
      throw error
    }
  }

}
