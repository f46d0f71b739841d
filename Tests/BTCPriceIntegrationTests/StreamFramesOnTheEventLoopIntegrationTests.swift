import BTCPriceCore
import BTCPriceNIO
import BTCPriceRuntime
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import NIOCore
import NIOPosix
import Testing

/// A stream's frames are handled by the thread that read them: a message wakes no other thread
/// (docs/PERFORMANCE.md, "Streams": a hop per message cost 30 times the CPU target).
@Suite(
  "Read a price stream on its connection's event loop", .timeLimit(.minutes(1)),
  .hangLimit(.seconds(30)))
struct StreamFramesOnTheEventLoopIntegrationTests {
  @Test func run_handsEveryMessageToTheCallerOnTheConnectionsEventLoop() async throws {
    let (server, connector, group) = try await makeSUT()
    let loop = group.next()
    let onLoop = Locked<[Bool]>([])
    let endpoint = try PriceSourceDefinition.coinbase.streamEndpoint(for: .usd, base: server.url())
    let task = Task {
      await connector.run(url: endpoint.url, subscriptions: endpoint.subscriptions) { _ in
        onLoop.withValue { $0.append(loop.inEventLoop) }
        return nil
      }
    }
    await eventually(within: .seconds(5)) { onLoop.value.count == 1 }
    server.send(FakeStreamMessage.coinbaseTicker(price: "68880.55"))
    server.ping()
    await eventually(within: .seconds(5)) { onLoop.value.count == 3 }

    #expect(onLoop.value == [true, true, true])
    task.cancel()
    #expect(await task.value == .closed(code: nil))
    await server.stop()
    try await group.shutdownGracefully()
  }

  // MARK: Helpers

  /// The fake stream server and a connector on a group of one loop, so "the connection's event
  /// loop" is that loop.
  private func makeSUT() async throws -> (
    FakeStreamServer, NIOWebSocketConnector, MultiThreadedEventLoopGroup
  ) {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    return (try await FakeStreamServer.start(), NIOWebSocketConnector(group: group), group)
  }

}
