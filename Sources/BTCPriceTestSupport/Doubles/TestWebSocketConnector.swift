import BTCPriceCore
import BTCPriceRuntime
import BTCPriceSources

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A ``WebSocketConnector`` for tests of who opens and closes streams, and when: every connection
/// greets with the messages set for its host, then stays open until the task is cancelled,
/// handing over what ``send(_:toHost:)`` sends. It counts the attempts, the open connections and
/// the messages read, records what the runner sends after subscribing (its keep-alives), and
/// answers those it has a reply for, as the exchange would.
public final class TestWebSocketConnector: WebSocketConnector {
  private struct State {
    var greetings: [String: [String]]
    var attempts: [String] = []
    var open: [Int: (host: String, continuation: AsyncStream<String>.Continuation)] = [:]
    var next = 0
    var delivered = 0
    var replies: [String: String]
    var sent: [(host: String, text: String)] = []
  }

  private let state: Locked<State>

  /// - Parameters:
  ///   - greetings: by host, the messages each new connection delivers first.
  ///   - replies: what the server answers to a text the runner sends (`ping` → `pong`).
  public init(greetings: [String: [String]] = [:], replies: [String: String] = [:]) {
    state = Locked(State(greetings: greetings, replies: replies))
  }

  /// The hosts of every connection attempt, in order.
  public var attempts: [String] { state.value.attempts }
  /// How many messages the connections have handed to their readers (each read to its end).
  public var delivered: Int { state.value.delivered }
  /// The hosts of the connections open now.
  public var openHosts: [String] { state.value.open.values.map(\.host).sorted() }

  /// The texts sent to `host` after the subscriptions, in order.
  public func sent(toHost host: String) -> [String] {
    state.value.sent.filter { $0.host == host }.map(\.text)
  }

  /// What the next connections to `host` deliver first.
  public func greet(_ host: String, with messages: [String]) {
    state.withValue { $0.greetings[host] = messages }
  }

  /// Delivers `text` on every open connection to `host`.
  public func send(_ text: String, toHost host: String) {
    let targets = state.withValue { $0.open.values.filter { $0.host == host } }
    for target in targets { target.continuation.yield(text) }
  }

  public func run(
    url: URL, subscriptions: [String], outbound: AsyncStream<String>,
    onReceived: @escaping @Sendable (WebSocketInbound, Duration) -> PriceStreamError?
  ) async -> PriceStreamError {
    let host = url.host ?? ""
    return await withTaskGroup(of: Void.self) { group in
      group.addTask {
        for await text in outbound {
          let reply = self.state.withValue { state in
            state.sent.append((host, text))
            return state.replies[text]
          }
          if let reply { self.send(reply, toHost: host) }
        }
      }
      defer { group.cancelAll() }
      return await run(url: url, subscriptions: subscriptions) { onReceived($0, .zero) }
    }
  }

  public func run(
    url: URL, subscriptions: [String],
    onInbound: @escaping @Sendable (WebSocketInbound) -> PriceStreamError?
  ) async -> PriceStreamError {
    let host = url.host ?? ""
    let (messages, continuation) = AsyncStream.makeStream(of: String.self)
    let (id, greetings) = state.withValue { state in
      state.next += 1
      state.attempts.append(host)
      state.open[state.next] = (host, continuation)
      return (state.next, state.greetings[host] ?? [])
    }
    for greeting in greetings { continuation.yield(greeting) }
    let ending = await withTaskCancellationHandler {
      for await text in messages {
        let error = onInbound(.text(text))
        state.withValue { $0.delivered += 1 }
        if let error { return error }
      }
      return PriceStreamError.closed(code: nil)
    } onCancel: {
      continuation.finish()
    }
    _ = state.withValue { $0.open.removeValue(forKey: id) }
    return ending
  }
}
