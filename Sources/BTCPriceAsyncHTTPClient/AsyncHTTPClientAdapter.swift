import AsyncHTTPClient
import BTCPriceNetworking
import Foundation
import NIOCore
import NIOPosix
import NIOSSL

private typealias TransportError = BTCPriceNetworking.HTTPClientError

/// ``HTTPClient`` on AsyncHTTPClient, for the command-line tool.
///
/// One `AsyncHTTPClient.HTTPClient` serves every request, so connections are pooled and reused
/// between ticks. Deadlines are enforced by Core cancelling the task; `transportTimeout` is only a
/// backstop for a caller that never cancels.
public final class AsyncHTTPClientAdapter: BTCPriceNetworking.HTTPClient {
  private let client: AsyncHTTPClient.HTTPClient
  private let transportTimeout: TimeAmount

  /// - Parameter eventLoopGroup: where the connections live; by default SwiftNIO's shared
  ///   singleton group. The command-line tool passes its one-thread group, so that its ticks,
  ///   run on that loop by ``EventLoopExecutor``, never change threads.
  public init(
    transportTimeout: Duration = .seconds(30), eventLoopGroup: (any EventLoopGroup)? = nil
  ) {
    var configuration = AsyncHTTPClient.HTTPClient.Configuration()
    configuration.redirectConfiguration = .follow(max: 3, allowCycles: false)
    configuration.httpVersion = .automatic
    configuration.decompression = .disabled
    configuration.connectionPool.idleTimeout = .seconds(60)
    // A refused or unresolvable host must fail at once so the chain can move on to the next source;
    // by default the pool keeps retrying until the connect timeout (10 s).
    configuration.connectionPool.retryConnectionEstablishment = false
    configuration.timeout.connect = .seconds(5)
    // No tracer, so no span attributes: with the default no-op tracer AsyncHTTPClient still parses
    // the URL again and fills the attributes on every request (docs/PERFORMANCE.md, "What we own
    // in a tick").
    configuration.tracing.tracer = nil
    self.client = AsyncHTTPClient.HTTPClient(
      eventLoopGroupProvider: eventLoopGroup.map { .shared($0) } ?? .singleton,
      configuration: configuration)
    self.transportTimeout = TimeAmount(transportTimeout)
  }

  /// Closes the pooled connections. Call once, before the process ends.
  public func shutdown() async {
    try? await client.shutdown()
  }

  public func get(_ request: HTTPRequest) async throws -> HTTPResponse {
    var outgoing = HTTPClientRequest(url: request.url.absoluteString)
    outgoing.method = .GET
    for header in request.headers {
      outgoing.headers.add(name: header.name, value: header.value)
    }
    do {
      let response = try await client.execute(outgoing, timeout: transportTimeout)
      if let length = response.headers.first(name: "content-length").flatMap(Int.init),
        length > request.maxBodySize
      {
        throw TransportError.bodyTooLarge(limit: request.maxBodySize)
      }
      let body = try await response.body.collect(upTo: request.maxBodySize)
      var headers: [String: String] = [:]
      for (name, value) in response.headers where headers[name.lowercased()] == nil {
        headers[name.lowercased()] = value
      }
      return HTTPResponse(
        status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView))
    } catch {
      throw Self.map(error, limit: request.maxBodySize)
    }
  }

  static func map(_ error: any Error, limit: Int) -> any Error {
    if Task.isCancelled || error is CancellationError { return CancellationError() }
    switch error {
    case let error as TransportError:
      return error
    case is NIOTooManyBytesError:
      return TransportError.bodyTooLarge(limit: limit)
    case let error as AsyncHTTPClient.HTTPClientError:
      switch error {
      case .cancelled: return CancellationError()
      case .remoteConnectionClosed: return TransportError.connectionReset
      case .connectTimeout, .readTimeout, .deadlineExceeded: return TransportError.timedOut
      default: return TransportError.other(error.description)
      }
    case let error as NIOConnectionError:
      if error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty {
        return TransportError.hostNotFound
      }
      return error.connectionErrors.first.map { map($0.error, limit: limit) }
        ?? TransportError.other(error.description)
    case let error as IOError:
      switch error.errnoCode {
      case ECONNREFUSED: return TransportError.connectionRefused
      case ECONNRESET, EPIPE: return TransportError.connectionReset
      default: return TransportError.other(error.description)
      }
    case let error as NIOSSLError:
      return TransportError.tlsFailure(String(describing: error))
    case let error as BoringSSLError:
      return TransportError.tlsFailure(String(describing: error))
    case let error as SocketAddressError:
      if case .unknown = error { return TransportError.hostNotFound }
      return TransportError.other(String(describing: error))
    default:
      return TransportError.other(String(describing: error))
    }
  }
}
