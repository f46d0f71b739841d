import BTCPriceCore
import BTCPriceRuntime
import BTCPriceSources
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The ``WebSocketConnector`` contract as checks against a running ``FakeStreamServer`` over
/// 127.0.0.1; every transport's tests run all of them (SwiftNIO's for the command line,
/// URLSession's for the app where URLSession can open a WebSocket).
///
/// Where the transports may differ in what they can see, a spec asks only what every price stream
/// needs: text that is not UTF-8 and an oversized message are never handed over and end the
/// connection (the spec returns only once it has ended), whatever error each transport reports
/// for them; each adapter's own tests pin its exact errors.
public enum WebSocketConnectorSpecs {
  public static func sendsTheSubscriptionsAndHandsOverEachText(
    _ connector: some WebSocketConnector, server: FakeStreamServer,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let endpoint = try PriceSourceDefinition.coinbase.streamEndpoint(for: .usd, base: server.url())
    let inbound = Locked<[String]>([])
    let task = Task {
      await connector.run(url: endpoint.url, subscriptions: endpoint.subscriptions) { message in
        if case .text(let text) = message { inbound.append(text) }
        return nil
      }
    }
    await eventually(
      within: .seconds(5), { inbound.value.count == 1 }, sourceLocation: sourceLocation)

    server.send(FakeStreamMessage.coinbaseTicker(price: "68880.55"))
    await eventually(
      within: .seconds(5), { inbound.value.count == 2 }, sourceLocation: sourceLocation)

    #expect(server.received == endpoint.subscriptions, sourceLocation: sourceLocation)
    #expect(
      inbound.value.last == FakeStreamMessage.coinbaseTicker(price: "68880.55"),
      sourceLocation: sourceLocation)
    task.cancel()
    _ = await task.value
  }

  public static func sendsWhatItIsToldAfterTheSubscriptions(
    _ connector: some WebSocketConnector, server: FakeStreamServer,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let endpoint = try PriceSourceDefinition.coinbase.streamEndpoint(for: .usd, base: server.url())
    let (outbound, say) = AsyncStream.makeStream(of: String.self)
    let acknowledged = Locked(false)
    let task = Task {
      await connector.run(
        url: endpoint.url, subscriptions: endpoint.subscriptions, outbound: outbound
      ) { _, _ in
        acknowledged.withValue { $0 = true }
        return nil
      }
    }
    await eventually(within: .seconds(5), { acknowledged.value }, sourceLocation: sourceLocation)

    say.yield(#"{"type":"ping-from-the-runner"}"#)
    say.yield("ping")

    await eventually(
      within: .seconds(5), { server.received.count == endpoint.subscriptions.count + 2 },
      sourceLocation: sourceLocation)
    #expect(
      server.received == endpoint.subscriptions + [#"{"type":"ping-from-the-runner"}"#, "ping"],
      sourceLocation: sourceLocation)
    task.cancel()
    _ = await task.value
  }

  /// The server's close frame ends the connection; with `exactCode`, as `.closed(code: 1001)`.
  /// URLSession's tests pass false: Apple documents `closeCode` only as `.invalid` until the
  /// connection closed, and nobody has yet seen whether a receive that fails on the server's
  /// close leaves its code there (the first Mac run will; the adapter maps it if it does).
  public static func reportsTheServersCloseCode(
    _ connector: some WebSocketConnector, server: FakeStreamServer, exactCode: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let (ending, _) = try await ending(of: connector, on: server) { $0.close(code: 1001) }

    #expect(ending != nil, "the connection did not end", sourceLocation: sourceLocation)
    if exactCode {
      #expect(ending == .closed(code: 1001), sourceLocation: sourceLocation)
    }
  }

  public static func refusesABinaryMessage(
    _ connector: some WebSocketConnector, server: FakeStreamServer,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let (ending, _) = try await ending(of: connector, on: server) { $0.sendForbidden(.binary) }

    #expect(ending == .protocolViolation("binary frame"), sourceLocation: sourceLocation)
  }

  /// Whatever a transport does with such a frame (fail the receive, repair it with U+FFFD, drop
  /// it: Apple's choice has not been seen), nothing of it reaches the runner.
  public static func neverHandsOverTextThatIsNotUTF8(
    _ connector: some WebSocketConnector, server: FakeStreamServer,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let (_, after) = try await ending(of: connector, on: server) {
      $0.sendForbidden(.invalidUTF8)
    }

    #expect(after.isEmpty, "handed over: \(after)", sourceLocation: sourceLocation)
  }

  public static func endsAtAMessageLargerThanTheBound(
    _ connector: some WebSocketConnector, server: FakeStreamServer,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let (_, after) = try await ending(of: connector, on: server) {
      $0.sendForbidden(.oversized(bytes: 4 << 20))
    }

    #expect(after.isEmpty, "handed over \(after.count) messages", sourceLocation: sourceLocation)
  }

  public static func reportsARefusedUpgrade(
    _ connector: some WebSocketConnector, server: FakeStreamServer,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    server.behave(.refuseUpgrade)

    let ending = await connector.run(url: server.url(), subscriptions: []) { _ in nil }

    guard case .handshakeFailed = ending else {
      Issue.record("expected a failed handshake, got \(ending)", sourceLocation: sourceLocation)
      return
    }
  }

  public static func closesTheConnectionWhenCancelled(
    _ connector: some WebSocketConnector, server: FakeStreamServer,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let acknowledged = Locked(false)
    let endpoint = try PriceSourceDefinition.coinbase.streamEndpoint(for: .usd, base: server.url())
    let task = Task {
      await connector.run(url: endpoint.url, subscriptions: endpoint.subscriptions) { _ in
        acknowledged.withValue { $0 = true }
        return nil
      }
    }
    await eventually(within: .seconds(5), { acknowledged.value }, sourceLocation: sourceLocation)

    task.cancel()

    #expect(await task.value == .closed(code: nil), sourceLocation: sourceLocation)
    await eventually(
      within: .seconds(5), { server.openConnections == 0 }, sourceLocation: sourceLocation)
  }

  public static func reportsUnreachableWhenNothingListens(
    _ connector: some WebSocketConnector, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let url = URL(string: "ws://127.0.0.1:\(try FakeExchangeServer.unusedPort())/")!

    let ending = await connector.run(url: url, subscriptions: []) { _ in nil }

    guard case .unreachable = ending else {
      Issue.record("expected unreachable, got \(ending)", sourceLocation: sourceLocation)
      return
    }
  }

  // MARK: - Helpers

  /// Subscribes to the fake's Coinbase stream, waits for the acknowledgement (proof the client
  /// upgraded: a fault sent earlier could reach it while it still reads HTTP), sends `fault`, and
  /// returns how the connection ended (nil when it had not ended 5 s later, and was cancelled)
  /// and what was handed over after the fault.
  private static func ending(
    of connector: some WebSocketConnector, on server: FakeStreamServer,
    after fault: @escaping @Sendable (FakeStreamServer) -> Void
  ) async throws -> (PriceStreamError?, [WebSocketInbound]) {
    let endpoint = try PriceSourceDefinition.coinbase.streamEndpoint(for: .usd, base: server.url())
    let inbound = Locked<[WebSocketInbound]>([])
    let task = Task {
      await connector.run(url: endpoint.url, subscriptions: endpoint.subscriptions) { message in
        inbound.append(message)
        return nil
      }
    }
    await eventually(within: .seconds(5)) { !inbound.value.isEmpty }
    let acknowledgements = inbound.value.count

    fault(server)

    let ending = await withTaskGroup(of: PriceStreamError?.self) { group in
      group.addTask { await task.value }
      group.addTask {
        // Not ended in 5 s: end it ourselves, and say so with nil.
        guard (try? await Task.sleep(for: .seconds(5))) != nil else { return nil }
        task.cancel()
        return nil
      }
      let first = await group.next() ?? nil
      group.cancelAll()
      return first
    }
    return (ending, Array(inbound.value.dropFirst(acknowledgements)))
  }

}
