#if os(Linux)
  import NIOConcurrencyHelpers
  import NIOCore
  import NIOPosix
  import Testing

  @testable import BTCPriceNIO

  /// A drain's questions to the kernel, asked of the connection's own socket (Linux): found among
  /// the process's descriptors by the channel's two addresses, so two connections to one server
  /// each answer for themselves. Real sockets over loopback.
  @Suite("Ask a connection's socket what the kernel holds", .hangLimit(.seconds(30)))
  struct AskTheSocketUseCaseTests {
    @Test func eachConnectionsSocket_tellsItsOwnUnreadBytes_andWhenTheyCame() async throws {
      try await withServer { group, server in
        let first = try await connect(group, to: server.port)
        let second = try await connect(group, to: server.port)
        let sockets = try await [first, second].asyncMap { channel in
          try await channel.eventLoop.submit { ConnectedSocket.of(channel) }.get()
        }
        let (one, two) = (try #require(sockets[0]), try #require(sockets[1]))
        #expect(one.descriptor != two.descriptor)
        #expect(one.holdsUnreadBytes == false)
        #expect(two.holdsUnreadBytes == false)

        // The server writes to the first connection only; neither client reads (autoRead off).
        try await server.write("{\"p\":\"68901.23\"}", toConnection: 0)
        try await eventually { one.holdsUnreadBytes == true }

        #expect(two.holdsUnreadBytes == false)
        let justCame = try #require(one.lastDataAge)
        // A few seconds at most (the shared pool stalls for seconds at the start of a full run
        // on two cores), not an age counted from some other moment.
        #expect(justCame < .seconds(5))
        try await Task.sleep(for: .milliseconds(300))
        #expect(try #require(one.lastDataAge) >= justCame + .milliseconds(200))
        try await first.close()
        try await second.close()
      }
    }

    // MARK: Helpers

    private func connect(_ group: any EventLoopGroup, to port: Int) async throws -> any Channel {
      try await ClientBootstrap(group: group)
        .channelOption(.autoRead, value: false)
        .connect(host: "127.0.0.1", port: port).get()
    }

    private func eventually(_ condition: () -> Bool) async throws {
      for _ in 0..<500 where !condition() {
        try await Task.sleep(for: .milliseconds(10))
      }
      #expect(condition())
    }

    /// A loopback server that keeps the connections it accepts, in order.
    private struct Server {
      let port: Int
      let accepted: NIOLockedValueBox<[any Channel]>

      func write(_ text: String, toConnection index: Int) async throws {
        for _ in 0..<500 where accepted.withLockedValue({ $0.count }) <= index {
          try await Task.sleep(for: .milliseconds(10))
        }
        let channel = accepted.withLockedValue { $0[index] }
        try await channel.writeAndFlush(ByteBuffer(string: text)).get()
      }
    }

    private func withServer(
      _ body: (any EventLoopGroup, Server) async throws -> Void
    ) async throws {
      let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
      let accepted = NIOLockedValueBox<[any Channel]>([])
      let listener = try await ServerBootstrap(group: group)
        .childChannelInitializer { channel in
          accepted.withLockedValue { $0.append(channel) }
          return channel.eventLoop.makeSucceededVoidFuture()
        }
        .bind(host: "127.0.0.1", port: 0).get()
      let server = Server(port: listener.localAddress?.port ?? 0, accepted: accepted)
      do {
        try await body(group, server)
      } catch {
        try? await listener.close()
        try await group.shutdownGracefully()
        throw error
      }
      try await listener.close()
      try await group.shutdownGracefully()
    }
  }

  extension Array {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
      var results: [T] = []
      for element in self { results.append(try await transform(element)) }
      return results
    }
  }
#endif
