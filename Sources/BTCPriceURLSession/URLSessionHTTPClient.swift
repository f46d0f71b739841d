import BTCPriceCore
import BTCPriceRuntime
import BTCPriceSources
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// ``BTCHTTPClient`` on URLSession, for the Apple apps (which link no SwiftNIO).
///
/// One session serves every request, so connections are reused between ticks (and because
/// creating sessions per request has crashed in teardown races on Linux). Bodies arrive through
/// the session's delegate, so reading stops as soon as one goes past `maxBodySize`. Deadlines are
/// enforced by Core cancelling the task, which cancels the data task; the session's own timeout is
/// only a backstop for a caller that never cancels (FoundationNetworking rounds it to seconds).
public final class URLSessionHTTPClient: BTCHTTPClient {
  private let session: URLSession
  private let exchanges: ExchangeTable

  public init(backstopTimeout: TimeInterval = 30) {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    configuration.httpShouldSetCookies = false
    configuration.timeoutIntervalForRequest = backstopTimeout
    let exchanges = ExchangeTable()
    self.exchanges = exchanges
    self.session = URLSession(
      configuration: configuration, delegate: SessionDelegate(exchanges), delegateQueue: nil)
  }

  /// Lets requests in flight finish, then releases the session and its delegate. Call once, when
  /// the client is no longer needed; an app that keeps one client for its lifetime never does.
  public func shutdown() {
    session.finishTasksAndInvalidate()
  }

  public func get(_ request: BTCHTTPRequest) async throws -> BTCHTTPResponse {
    var outgoing = URLRequest(url: request.url)
    outgoing.httpMethod = request.body == nil ? "GET" : "POST"
    outgoing.httpBody = request.body
    for header in request.headers {
      outgoing.addValue(header.value, forHTTPHeaderField: header.name)
    }
    let task = session.dataTask(with: outgoing)
    do {
      return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
          exchanges.begin(task.taskIdentifier, limit: request.maxBodySize, continuation)
          if Task.isCancelled {
            exchanges.finish(task.taskIdentifier, response: nil, error: CancellationError())
          } else {
            task.resume()
          }
        }
      } onCancel: {
        task.cancel()
      }
    } catch {
      throw Self.map(error, limit: request.maxBodySize)
    }
  }

  static func map(_ error: any Error, limit: Int) -> any Error {
    if Task.isCancelled || error is CancellationError { return CancellationError() }
    if let error = error as? BTCHTTPClientError { return error }
    guard let code = urlErrorCode(of: error) else {
      return BTCHTTPClientError.other(String(describing: error))
    }
    switch code {
    case .cannotConnectToHost: return BTCHTTPClientError.connectionRefused
    case .networkConnectionLost: return BTCHTTPClientError.connectionReset
    case .cannotFindHost, .dnsLookupFailed: return BTCHTTPClientError.hostNotFound
    case .timedOut: return BTCHTTPClientError.timedOut
    case .dataLengthExceedsMaximum: return BTCHTTPClientError.bodyTooLarge(limit: limit)
    case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
      .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
      .clientCertificateRequired:
      return BTCHTTPClientError.tlsFailure(description(of: error))
    case .unknown where isTLSLibraryMessage(description(of: error)):
      // FoundationNetworking on Linux reports curl's TLS handshake errors as `unknown` (-1), with
      // OpenSSL's message as the description; Apple's URLSession uses the codes above.
      return BTCHTTPClientError.tlsFailure(description(of: error))
    default:
      return BTCHTTPClientError.other(description(of: error))
    }
  }

  private static func urlErrorCode(of error: any Error) -> URLError.Code? {
    if let error = error as? URLError { return error.code }
    let error = error as NSError
    return error.domain == NSURLErrorDomain ? URLError.Code(rawValue: error.code) : nil
  }

  private static func isTLSLibraryMessage(_ text: String) -> Bool {
    ["OpenSSL", "SSL routines", "TLS", "BoringSSL", "GnuTLS"].contains { text.contains($0) }
  }

  private static func description(of error: any Error) -> String {
    (error as NSError).localizedDescription
  }
}

/// The requests in flight, by task identifier: what the delegate has received for each, and the
/// continuation that hands the outcome back to ``URLSessionHTTPClient/get(_:)``.
private final class ExchangeTable: Sendable {
  private struct Exchange {
    let limit: Int
    let continuation: CheckedContinuation<BTCHTTPResponse, any Error>
    var body = Data()
    var failure: BTCHTTPClientError?
  }

  private let exchanges = Locked<[Int: Exchange]>([:])

  func begin(
    _ id: Int, limit: Int, _ continuation: CheckedContinuation<BTCHTTPResponse, any Error>
  ) {
    exchanges.withValue { $0[id] = Exchange(limit: limit, continuation: continuation) }
  }

  /// Appends to the body; false once it goes past the limit, or the announced length does.
  func append(_ data: Data, for id: Int, announcedLength: Int64?) -> Bool {
    exchanges.withValue { exchanges in
      guard var exchange = exchanges[id] else { return false }
      defer { exchanges[id] = exchange }
      guard exchange.body.count + data.count <= exchange.limit,
        (announcedLength ?? -1) <= Int64(exchange.limit)
      else {
        exchange.failure = .bodyTooLarge(limit: exchange.limit)
        return false
      }
      exchange.body.append(data)
      return true
    }
  }

  /// Hands the outcome to the waiting request. A failure this table recorded (a body over the
  /// limit) wins over the cancellation error it caused.
  func finish(_ id: Int, response: URLResponse?, error: (any Error)?) {
    guard let exchange = exchanges.withValue({ $0.removeValue(forKey: id) }) else { return }
    if let failure = exchange.failure {
      exchange.continuation.resume(throwing: failure)
    } else if let error {
      exchange.continuation.resume(throwing: error)
    } else if let response = response as? HTTPURLResponse {
      var headers: [String: String] = [:]
      for case (let name as String, let value as String) in response.allHeaderFields {
        headers[name.lowercased()] = value
      }
      exchange.continuation.resume(
        returning: BTCHTTPResponse(
          status: response.statusCode, headers: headers, body: exchange.body))
    } else {
      exchange.continuation.resume(throwing: BTCHTTPClientError.other("no HTTP response"))
    }
  }
}

private final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
  private let exchanges: ExchangeTable

  init(_ exchanges: ExchangeTable) {
    self.exchanges = exchanges
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let announced = dataTask.response?.expectedContentLength
    if !exchanges.append(data, for: dataTask.taskIdentifier, announcedLength: announced) {
      dataTask.cancel()
    }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    exchanges.finish(task.taskIdentifier, response: task.response, error: error)
  }
}
