import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What ``URLSessionWebSocketConnector`` needs of one WebSocket connection: a
/// `URLSessionWebSocketTask` in the app, a scripted one in the tests (FoundationNetworking on
/// Linux cannot open a real one).
package protocol WebSocketTaskDriving: Sendable {
  func resume()
  func send(text: String) async throws
  /// The next complete message; throws once the connection has ended.
  func receive() async throws -> URLSessionWebSocketTask.Message
  /// Sends a close frame with `closeCode` (if still open) and ends the task; safe to repeat.
  func cancel(closeCode: URLSessionWebSocketTask.CloseCode)
  /// The server's close code once closed; `.invalid` before.
  var closeCode: URLSessionWebSocketTask.CloseCode { get }
  /// The status of the answer to the upgrade request, once there is one.
  var handshakeStatus: Int? { get }
  /// That answer's `Retry-After` header, as sent.
  var handshakeRetryAfter: String? { get }
}

/// The live ``WebSocketTaskDriving``: a `URLSessionWebSocketTask`.
struct URLSessionWebSocketTaskDriver: WebSocketTaskDriving {
  let task: URLSessionWebSocketTask

  init(_ task: URLSessionWebSocketTask) {
    self.task = task
  }

  func resume() { task.resume() }

  func send(text: String) async throws {
    try await task.send(.string(text))
  }

  func receive() async throws -> URLSessionWebSocketTask.Message {
    try await task.receive()
  }

  func cancel(closeCode: URLSessionWebSocketTask.CloseCode) {
    task.cancel(with: closeCode, reason: nil)
  }

  var closeCode: URLSessionWebSocketTask.CloseCode { task.closeCode }

  var handshakeStatus: Int? { (task.response as? HTTPURLResponse)?.statusCode }

  var handshakeRetryAfter: String? {
    (task.response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Retry-After")
  }
}
