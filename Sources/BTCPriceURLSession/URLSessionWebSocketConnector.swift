import BTCPriceCore
import BTCPriceSources
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The iPhone app's WebSocket transport for the price streams, on `URLSessionWebSocketTask` (the
/// app links no SwiftNIO). Everything that decides anything is in ``PriceStreamRunner``; this
/// only maps what URLSession does onto ``WebSocketInbound`` and a typed ``PriceStreamError``, with
/// the guarantees of the command line's `NIOWebSocketConnector` as far as URLSession allows.
///
/// What URLSession documents, and what follows for us (Apple's URLSessionWebSocketTask reference,
/// developer.apple.com/documentation/foundation/urlsessionwebsockettask):
/// - `maximumMessageSize` is "the maximum number of bytes to buffer before the receive call fails
///   with an error", counting "the sum of all bytes from continuation frames" (default 1 MiB). We
///   set ``PriceStreamEndpoint/maximumMessageSize``, so an endless frame costs at most 64 KiB and
///   ends the connection (`frameTooLarge`), as NIO refuses it from its header.
/// - `receive` "reads a WebSocket message once all the frames of the message are available":
///   URLSession reassembles fragments itself, so unlike NIO we cannot refuse a fragmented
///   message; the size bound above still holds over all its fragments.
/// - `closeCode` "is `.invalid`" until the connection closed; afterwards it is the code of the
///   close, which we report as `.closed(code:)`.
/// - Pings: the API surfaces no incoming ping (only `sendPing` for our own), so answering the
///   server's pings (RFC 6455 requires it; Binance cuts a connection without a pong within a
///   minute) is the task's own job, and a ping is not a sign of life the runner can see. The
///   streams the app opens first (Binance trades, Coinbase heartbeats) speak far more often than
///   their silence bound anyway.
/// - Extensions: the API has no option for them and we add no `Sec-WebSocket-Extensions` header,
///   so we ask for none. Whether Apple's stack offers `permessage-deflate` on its own could not be
///   observed here (FoundationNetworking on Linux cannot open a WebSocket: docs/STREAMS.md, "The
///   app's transport"); if it did, it would also inflate, and the size bound counts what we read.
/// - Binary messages are refused (`protocolViolation`), and so is text that arrives with U+FFFD
///   where a transport repaired bytes that were not UTF-8 instead of failing the receive.
public final class URLSessionWebSocketConnector: WebSocketConnector {
  private let makeTask:
    @Sendable (URLRequest, _ maximumMessageSize: Int) -> any WebSocketTaskDriving
  private let maximumMessageSize: Int

  /// One session serves every connection (creating sessions per request has crashed in teardown
  /// races on Linux, and the app keeps one connector for its lifetime).
  public convenience init(maximumMessageSize: Int = PriceStreamEndpoint.maximumMessageSize) {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    configuration.httpShouldSetCookies = false
    let session = URLSession(configuration: configuration)
    self.init(maximumMessageSize: maximumMessageSize) { request, limit in
      let task = session.webSocketTask(with: request)
      task.maximumMessageSize = limit
      return URLSessionWebSocketTaskDriver(task)
    }
  }

  /// - Parameter makeTask: the task for one connection, not yet resumed (tests script one).
  package init(
    maximumMessageSize: Int = PriceStreamEndpoint.maximumMessageSize,
    makeTask:
      @escaping @Sendable (URLRequest, _ maximumMessageSize: Int) ->
      any WebSocketTaskDriving
  ) {
    self.maximumMessageSize = maximumMessageSize
    self.makeTask = makeTask
  }

  public func run(
    url: URL, subscriptions: [String],
    onInbound: @escaping @Sendable (WebSocketInbound) -> PriceStreamError?
  ) async -> PriceStreamError {
    await run(url: url, subscriptions: subscriptions, outbound: AsyncStream { $0.finish() }) {
      inbound, _ in onInbound(inbound)
    }
  }

  public func run(
    url: URL, subscriptions: [String], outbound: AsyncStream<String>,
    onReceived: @escaping @Sendable (WebSocketInbound, Duration) -> PriceStreamError?
  ) async -> PriceStreamError {
    if case .failure(let error) = WebSocketTarget.of(url) { return error }
    var request = URLRequest(url: url)
    request.setValue(BTCPriceVersion.userAgent, forHTTPHeaderField: "User-Agent")
    let task = makeTask(request, maximumMessageSize)
    let limit = maximumMessageSize
    return await withTaskCancellationHandler {
      task.resume()
      do {
        // Sends before the handshake completes are queued by the task (Apple's reference).
        for subscription in subscriptions { try await task.send(text: subscription) }
        return try await withThrowingTaskGroup(of: Void.self) { group in
          group.addTask {
            for await text in outbound { try await task.send(text: text) }
          }
          defer { group.cancelAll() }
          while true {
            let inbound = try Self.inbound(from: await task.receive())
            if let error = onReceived(inbound, .zero) {
              task.cancel(closeCode: .normalClosure)
              return error
            }
          }
        }
      } catch let error as PriceStreamError {
        task.cancel(closeCode: .unsupportedData)
        return error
      } catch {
        // Read before our own close could overwrite the server's code.
        let reason = Self.reason(
          for: error, closeCode: task.closeCode, handshakeStatus: task.handshakeStatus,
          retryAfter: task.handshakeRetryAfter.flatMap { RetryAfter.parse($0, now: Date()) },
          cancelled: Task.isCancelled, limit: limit)
        task.cancel(closeCode: .goingAway)
        return reason
      }
    } onCancel: {
      task.cancel(closeCode: .goingAway)
    }
  }

  /// What the runner is handed for one received message; binary and repaired text are refused.
  package static func inbound(
    from message: URLSessionWebSocketTask.Message
  ) throws(PriceStreamError) -> WebSocketInbound {
    switch message {
    case .string(let text):
      guard !text.unicodeScalars.contains("\u{FFFD}") else {
        throw .protocolViolation("text frame is not UTF-8")
      }
      return .text(text)
    case .data:
      throw .protocolViolation("binary frame")
    @unknown default:
      throw .protocolViolation("unknown message kind")
    }
  }

  /// Why a connection ended, from what URLSession left behind: our own cancellation first, then
  /// the server's close code, a refused upgrade's status (with its `Retry-After`, so the runner
  /// rests the stream as long as the exchange asks, as over NIO), an oversized message, then the
  /// error.
  package static func reason(
    for error: any Error, closeCode: URLSessionWebSocketTask.CloseCode, handshakeStatus: Int?,
    retryAfter: Duration? = nil, cancelled: Bool, limit: Int
  ) -> PriceStreamError {
    if cancelled || error is CancellationError { return .closed(code: nil) }
    if closeCode != .invalid { return .closed(code: closeCode.rawValue) }
    if let status = handshakeStatus, status != 101 {
      return .handshakeFailed(
        status: status, reason: "the server did not upgrade to WebSocket", retryAfter: retryAfter)
    }
    let nsError = error as NSError
    // Apple's tasks fail a receive over `maximumMessageSize` with POSIX EMSGSIZE.
    if nsError.domain == NSPOSIXErrorDomain && nsError.code == Int(EMSGSIZE) {
      return .frameTooLarge(limit: limit)
    }
    let description = nsError.localizedDescription
    guard nsError.domain == NSURLErrorDomain else { return .unreachable(description) }
    switch URLError.Code(rawValue: nsError.code) {
    case .badServerResponse:
      return .handshakeFailed(status: handshakeStatus, reason: description)
    case .networkConnectionLost:
      return .closed(code: nil)
    case .dataLengthExceedsMaximum:
      return .frameTooLarge(limit: limit)
    default:
      // Refused, DNS, TLS, offline, and on Linux `unsupportedURL`: "WebSockets not supported by
      // libcurl".
      return .unreachable(description)
    }
  }
}
