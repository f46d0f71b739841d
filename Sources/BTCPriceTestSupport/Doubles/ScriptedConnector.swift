import BTCPriceCore
import BTCPriceRuntime
import BTCPriceSources

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A ``WebSocketConnector`` that plays one script per connection attempt: the messages it
/// delivers, then how the connection ends (an error, or open until cancelled). Attempts beyond the
/// scripts stay open until cancelled. It counts the attempts and the cancelled connections.
public final class ScriptedConnector: WebSocketConnector {
  public struct Script: Sendable {
    public enum Ending: Sendable {
      case end(PriceStreamError)
      case waitForCancellation
      /// Waits for cancellation, then does not return before ``ScriptedConnector/releaseHeld()``:
      /// a connection slow to close. One script at most.
      case waitForCancellationThenHold
    }

    public let messages: [WebSocketInbound]
    public let then: Ending

    public init(messages: [WebSocketInbound], then: Ending) {
      self.messages = messages
      self.then = then
    }
  }

  private let scripts: Locked<[Script]>
  private let counts = Locked((attempts: 0, cancellations: 0))
  private let hold = Locked((released: false, waiting: CheckedContinuation<Void, Never>?.none))

  public init(scripts: [Script]) {
    self.scripts = Locked(scripts)
  }

  public var attempts: Int { counts.value.attempts }
  public var cancellations: Int { counts.value.cancellations }

  /// Lets the connection held by ``Script/Ending/waitForCancellationThenHold`` return.
  public func releaseHeld() {
    let waiting = hold.withValue { hold in
      hold.released = true
      return hold.waiting.take()
    }
    waiting?.resume()
  }

  public func run(
    url: URL, subscriptions: [String],
    onInbound: @escaping @Sendable (WebSocketInbound) -> PriceStreamError?
  ) async -> PriceStreamError {
    counts.withValue { $0.attempts += 1 }
    let script = scripts.withValue { $0.isEmpty ? nil : $0.removeFirst() }
    guard let script else { return await waitForCancellation() }
    for message in script.messages {
      if let error = onInbound(message) { return error }
    }
    switch script.then {
    case .end(let error): return error
    case .waitForCancellation: return await waitForCancellation()
    case .waitForCancellationThenHold:
      let ending = await waitForCancellation()
      await withCheckedContinuation { continuation in
        let released = hold.withValue { hold in
          if !hold.released { hold.waiting = continuation }
          return hold.released
        }
        if released { continuation.resume() }
      }
      return ending
    }
  }

  private func waitForCancellation() async -> PriceStreamError {
    // A stream that never yields: the loop ends only when the task is cancelled.
    let (stream, continuation) = AsyncStream<Void>.makeStream()
    for await _ in stream {}
    continuation.finish()
    counts.withValue { $0.cancellations += 1 }
    return .closed(code: nil)
  }
}
