import BTCPriceServer
import BTCPriceTestSupport
import Foundation
import Hummingbird
import Logging
import Testing

/// The limits that only a real socket shows.
@Suite(
  "Refuse abuse on a real socket", .serialized, .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct ServeLimitsTests {
  @Test func connectionsOverTheLimitPerAddress_getServiceUnavailable() async throws {
    let app = makeSUT(connectionsPerAddress: 2)

    try await withRunningApplication(app) { port in
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
      #expect(refused.hasSuffix("\r\n\r\nToo many connections from your address.\n"))
      #expect(third.closedByServer, "the refused connection is closed, not left to time out")
    }
  }

  @Test func aConnectionThatCloses_freesItsPlace() async throws {
    let app = makeSUT(connectionsPerAddress: 1)

    try await withRunningApplication(app) { port in
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

    try await withRunningApplication(app) { port in
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

  /// Where the head's bounds fall (8 KiB of fields, 64 fields; PriceServer.Configuration's
  /// defaults, which `btc-price serve` keeps): a head just inside is answered, one just past is
  /// refused. The 8 KiB count the fields as the HTTP decoder does: with `Host: x`,
  /// `Connection: close` and the padding's name beside it, a value of 8,155 bytes fills them.
  @Test(arguments: [
    (padding: 8_155, fields: 3, answered: true), (padding: 8_156, fields: 3, answered: false),
    (padding: 1, fields: 64, answered: true), (padding: 1, fields: 65, answered: false),
  ])
  func aRequestHead_isAnsweredUpToItsBounds(padding: Int, fields: Int, answered: Bool)
    async throws
  {
    let app = makeSUT(connectionsPerAddress: 8)

    try await withRunningApplication(app) { port in
      let connection = try RawConnection(port: port)
      let more = (0..<(fields - 3)).map { "X-Field-\($0): 1\r\n" }.joined()
      let value = String(repeating: "a", count: padding)
      connection.send(
        "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\(more)X-Padding: \(value)\r\n\r\n"
      )
      let answer = await connection.receive()
      #expect(answer.hasPrefix("HTTP/1.1 200") == answered, "\(answer.prefix(200))")
    }
  }

  @Test func aViewerThatStopsReading_isDisconnected() async throws {
    let broadcaster = PriceBroadcaster(initial: nothingKnown)
    try await withOneStreamViewer(broadcaster) { server, connection, _ in
      #expect(server.viewerCount == 1)
      // Never read again: the kernel's buffers fill, then the connection's, then it is dropped.
      let big = fresh(
        "68901.23", source: .init(id: String(repeating: "s", count: 60_000), displayName: "S"))
      for _ in 0..<2_000 where server.droppedViewerCount == 0 {
        broadcaster.publish(big)
        try await Task.sleep(for: .milliseconds(2))
      }
      #expect(server.droppedViewerCount == 1)
      #expect(server.viewerCount == 0)
      // Its connection is closed, not only forgotten: what it had not read, then the end.
      _ = await connection.receive(upTo: .max)
      #expect(connection.closedByServer)
      let metrics = server.metrics.render(latest: broadcaster.latest, viewers: 0)
      #expect(metrics.contains("btc_price_viewers_dropped_total 1\n"), "\(metrics)")
    }
  }

  /// A viewer who comes after a tick gets it at once, not at the next tick; one who closes the
  /// page is counted gone (and not as dropped).
  @Test func aViewerWhoComesAfterATick_getsItAtOnce_andOneWhoLeaves_isCountedGone() async throws {
    let broadcaster = PriceBroadcaster(initial: nothingKnown)
    try await withOneStreamViewer(broadcaster) { server, first, port in
      broadcaster.publish(fresh("68901.23"))
      #expect(await first.receive(untilContains: "id: 1\n").contains("id: 1\n"))

      let second = try RawConnection(port: port)
      second.send("GET /api/stream HTTP/1.1\r\nHost: x\r\n\r\n")
      let caughtUp = await second.receive(untilContains: "68901.23")
      #expect(caughtUp.contains("id: 1\nevent: price\ndata: "), "\(caughtUp)")
      #expect(server.viewerCount == 2)

      // A stream's request is never read again, so a viewer's close is seen when a tick's write
      // to it fails: within the next ticks.
      first.hangUp()
      second.hangUp()
      for _ in 0..<1_000 where server.viewerCount > 0 {
        broadcaster.publish(fresh("68901.24"))
        try await Task.sleep(for: .milliseconds(5))
      }
      #expect(server.viewerCount == 0)
      #expect(server.droppedViewerCount == 0, "they left; nobody was dropped")
    }
  }

  /// The fan-out writes its own chunks below the HTTP encoder; on the wire they must be the
  /// same chunked framing as the encoder's.
  @Test func aStreamOnTheWire_isOneValidChunkedBody() async throws {
    let broadcaster = PriceBroadcaster(initial: nothingKnown)
    broadcaster.publish(fresh("68901.23"))
    try await withOneStreamViewer(broadcaster) { _, connection, _ in
      broadcaster.publish(fresh("68902.00"))
      broadcaster.heartbeat()
      let answer = await connection.receive(untilContains: ": heartbeat\n\n\r\n")
      let parts = answer.components(separatedBy: "\r\n\r\n")
      #expect(parts.first?.lowercased().contains("transfer-encoding: chunked") == true)
      let body = try #require(Self.dechunk(parts.dropFirst().joined(separator: "\r\n\r\n")))
      #expect(
        body.replacing(#/^retry: \d{4}\n\n/#, with: "")
          == broadcaster.recent.suffix(2).map { String(buffer: $0.frame) }.joined()
          + ": heartbeat\n\n", "\(body)")
    }
  }

  /// The data of a chunked body, or nil when its framing is wrong.
  private static func dechunk(_ text: String) -> String? {
    var rest = Substring(text)
    var data = ""
    while let end = rest.range(of: "\r\n") {
      guard let size = Int(rest[..<end.lowerBound], radix: 16) else { return nil }
      rest = rest[end.upperBound...]
      guard rest.utf8.count >= size + 2 else { return nil }
      let chunk = String(rest.utf8.prefix(size))!
      rest = Substring(String(rest.utf8.dropFirst(size))!)
      // "\r\n" is one Character: step over it in UTF-8.
      guard rest.hasPrefix("\r\n") else { return nil }
      rest = Substring(String(rest.utf8.dropFirst(2))!)
      data += chunk
    }
    return rest.isEmpty ? data : nil
  }

  /// A live server for `broadcaster` with one raw connection that asked for the stream and is
  /// counted as a viewer.
  private func withOneStreamViewer(
    _ broadcaster: PriceBroadcaster,
    _ body: @Sendable (PriceServer, RawConnection, _ port: Int) async throws -> Void
  ) async throws {
    let server = PriceServer(
      broadcaster: broadcaster, metrics: ServerMetrics(sources: [.binance]))
    let app = server.makeApplication(
      configuration: .init(host: "127.0.0.1", port: 0), logger: Logger(label: "test"))

    try await withRunningApplication(app) { port in
      // Ends the stream, so the server can stop when the test ends.
      defer { broadcaster.finish() }
      let connection = try RawConnection(port: port)
      connection.send("GET /api/stream HTTP/1.1\r\nHost: x\r\n\r\n")
      for _ in 0..<1_000 where server.viewerCount == 0 {
        try await Task.sleep(for: .milliseconds(5))
      }
      try await body(server, connection, port)
    }
  }

  private func makeSUT(connectionsPerAddress: Int) -> some ApplicationProtocol {
    let server = PriceServer(
      broadcaster: PriceBroadcaster(initial: nothingKnown),
      metrics: ServerMetrics(sources: [.binance]))
    return server.makeApplication(
      configuration: .init(
        host: "127.0.0.1", port: 0, connectionsPerAddress: connectionsPerAddress),
      logger: Logger(label: "test"))
  }
}
