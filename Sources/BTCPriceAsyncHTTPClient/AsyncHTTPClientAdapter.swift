import AsyncHTTPClient
import BTCPriceNetworking
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

private typealias TransportError = BTCPriceNetworking.HTTPClientError

/// ``HTTPClient`` on AsyncHTTPClient, for the command-line tool.
///
/// One `AsyncHTTPClient.HTTPClient` serves every request, so connections are pooled and reused
/// between ticks. Deadlines are enforced by Core cancelling the task; `transportTimeout` is only a
/// backstop for a caller that never cancels.
///
/// Requests go through AsyncHTTPClient's `EventLoopFuture` API with a body-accumulating delegate,
/// not its `async` one: the `async` API starts an unstructured `Task` per request (its cancel
/// handler is an actor), which wakes a thread of Swift's global pool on every tick. On the
/// command-line tool's one loop thread (``EventLoopExecutor``) the future's callbacks and the
/// awaiting task then never leave that thread (docs/PERFORMANCE.md, "What limits each figure").
public final class AsyncHTTPClientAdapter: BTCPriceNetworking.HTTPClient {
  private let client: AsyncHTTPClient.HTTPClient
  private let transportTimeout: TimeAmount
  /// AsyncHTTPClient's request for each of our requests, parsed once: a request's URL and headers
  /// never change between ticks, and taking the URL apart again cost more than the HTTP codec.
  private let prepared = NIOLockedValueBox<[PreparedKey: AsyncHTTPClient.HTTPClient.Request]>([:])

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
    do {
      let outgoing = try prepare(request)
      // `.indifferent` is the loop the caller runs on when it runs on one of the client's loops.
      let task = client.execute(
        request: outgoing,
        delegate: ResponseAccumulator(request: outgoing, maxBodySize: request.maxBodySize),
        eventLoop: .indifferent, deadline: .now() + transportTimeout)
      let response = try await withTaskCancellationHandler {
        try await task.futureResult.get()
      } onCancel: {
        task.cancel()
      }
      var headers: [String: String] = [:]
      for (name, value) in response.headers {
        let name = name.lowercased()
        if headers[name] == nil { headers[name] = value }
      }
      return HTTPResponse(
        status: Int(response.status.code), headers: headers,
        body: response.body.map { Data($0.readableBytesView) } ?? Data())
    } catch {
      throw Self.map(error, limit: request.maxBodySize)
    }
  }

  private func prepare(_ request: HTTPRequest) throws -> AsyncHTTPClient.HTTPClient.Request {
    let key = PreparedKey(request)
    if let known = prepared.withLockedValue({ $0[key] }) { return known }
    var outgoing = try AsyncHTTPClient.HTTPClient.Request(url: request.url, method: .GET)
    for header in request.headers {
      outgoing.headers.add(name: header.name, value: header.value)
    }
    prepared.withLockedValue {
      // A handful of sources, each with one URL: the bound only guards against a caller that
      // makes up a new URL every time.
      if $0.count >= 64 { $0.removeAll() }
      $0[key] = outgoing
    }
    return outgoing
  }

  static func map(_ error: any Error, limit: Int) -> any Error {
    if Task.isCancelled || error is CancellationError { return CancellationError() }
    switch error {
    case let error as TransportError:
      return error
    case is ResponseAccumulator.ResponseTooBigError, is NIOTooManyBytesError:
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

/// What makes two of our requests the same request for AsyncHTTPClient.
private struct PreparedKey: Hashable {
  let url: String
  let headers: [String]

  init(_ request: HTTPRequest) {
    url = request.url.absoluteString
    headers = request.headers.flatMap { [$0.name, $0.value] }
  }
}
