import BTCPriceSources
import NIOConcurrencyHelpers
import NIOCore

/// One request's outcome, completed once: by the answer, a failure, the transport timeout or
/// the caller's cancellation, whichever comes first. Whoever completes it closes the channel
/// unless the answer was whole.
final class Exchange: Sendable {
  let loop: any EventLoop
  let promise: EventLoopPromise<BTCHTTPResponse>
  let maxBodySize: Int
  private let channel = NIOLockedValueBox<ChannelState>(.none)

  private enum ChannelState {
    case none
    case attached(any Channel)
    case cancelled
  }

  init(loop: any EventLoop, maxBodySize: Int) {
    self.loop = loop
    self.promise = loop.makePromise(of: BTCHTTPResponse.self)
    self.maxBodySize = maxBodySize
  }

  /// False when the caller has given up already.
  func attach(_ channel: any Channel) -> Bool {
    self.channel.withLockedValue { state in
      guard case .none = state else { return false }
      state = .attached(channel)
      return true
    }
  }

  func cancel() {
    fail(CancellationError())
  }

  /// Fails the request (when still open) and drops its connection.
  func fail(_ error: any Error) {
    let attached = channel.withLockedValue { state -> (any Channel)? in
      defer { state = .cancelled }
      if case .attached(let channel) = state { return channel }
      return nil
    }
    attached?.close(promise: nil)
    if loop.inEventLoop {
      promise.fail(error)
    } else {
      loop.execute { self.promise.fail(error) }
    }
  }

  /// Completes the request; its connection is no longer the exchange's to close.
  func succeed(_ response: BTCHTTPResponse) {
    channel.withLockedValue { $0 = .cancelled }
    promise.succeed(response)
  }
}
