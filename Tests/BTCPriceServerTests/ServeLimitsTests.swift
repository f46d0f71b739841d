import BTCPriceServer
import BTCPriceTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// The limits that only a real socket shows.
@Suite("Refuse abuse on a real socket", .serialized, .timeLimit(.minutes(1)))
struct ServeLimitsTests {
  // The test framework's own client holds one connection from 127.0.0.1 throughout.

  @Test func connectionsOverTheLimitPerAddress_getServiceUnavailable() async throws {
    let app = makeSUT(connectionsPerAddress: 3)

    try await app.test(.live) { client in
      let port = try #require(client.port)
      let first = try RawConnection(port: port)
      let second = try RawConnection(port: port)
      first.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
      second.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(await first.receive(untilContains: "ok\n").hasPrefix("HTTP/1.1 200"))
      #expect(await second.receive(untilContains: "ok\n").hasPrefix("HTTP/1.1 200"))

      let third = try RawConnection(port: port)
      third.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
      let refused = await third.receive()
      #expect(refused.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"), "\(refused)")
      #expect(refused.contains("Retry-After: 10\r\n"))
    }
  }

  @Test func aConnectionThatCloses_freesItsPlace() async throws {
    let app = makeSUT(connectionsPerAddress: 2)

    try await app.test(.live) { client in
      let port = try #require(client.port)
      do {
        let first = try RawConnection(port: port)
        first.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(await first.receive().hasPrefix("HTTP/1.1 200"))
      }
      var answer = ""
      for _ in 0..<50 {
        let next = try RawConnection(port: port)
        next.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        answer = await next.receive()
        if answer.hasPrefix("HTTP/1.1 200") { break }
        try await Task.sleep(for: .milliseconds(20))
      }
      #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
    }
  }

  @Test func anOversizedRequestHead_isRefused() async throws {
    let app = makeSUT(connectionsPerAddress: 8)

    try await app.test(.live) { client in
      let port = try #require(client.port)
      let connection = try RawConnection(port: port)
      let padding = String(repeating: "a", count: 16 * 1024)
      connection.send("GET / HTTP/1.1\r\nHost: x\r\nX-Padding: \(padding)\r\n\r\n")
      let answer = await connection.receive()
      #expect(!answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(200))")
      if !answer.isEmpty {
        #expect(answer.hasPrefix("HTTP/1.1 4"), "\(answer.prefix(200))")
      }
    }
  }

  @Test func aViewerThatStopsReading_isDisconnected() async throws {
    let broadcaster = PriceBroadcaster(
      initial: nothingKnown, configuration: .init(ringCapacity: 10, viewerBuffer: 4))
    let app = makeSUT(connectionsPerAddress: 8, broadcaster: broadcaster)

    try await app.test(.live) { client in
      let port = try #require(client.port)
      let connection = try RawConnection(port: port)
      connection.send("GET /api/stream HTTP/1.1\r\nHost: x\r\n\r\n")
      await waitUntil({ broadcaster.viewerCount == 1 })
      // Never read again: the kernel's buffers fill, then the viewer's own, then it is dropped.
      let big = fresh(
        "68901.23", source: .init(id: String(repeating: "s", count: 60_000), displayName: "S"))
      for _ in 0..<2_000 where broadcaster.droppedCount == 0 {
        broadcaster.publish(big)
        await Task.yield()
      }
      #expect(broadcaster.droppedCount == 1)
      #expect(broadcaster.viewerCount == 0)
    }
  }

  private func makeSUT(
    connectionsPerAddress: Int,
    broadcaster: PriceBroadcaster = PriceBroadcaster(initial: nothingKnown)
  ) -> some ApplicationProtocol {
    let server = PriceServer(
      broadcaster: broadcaster, metrics: ServerMetrics(sources: [.binance]), sources: [.binance])
    return server.makeApplication(
      configuration: .init(
        host: "127.0.0.1", port: 0, connectionsPerAddress: connectionsPerAddress),
      logger: Logger(label: "test"))
  }
}
