import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A real proxy on 127.0.0.1 with a random port, for the proxy tests: an HTTP CONNECT proxy or a
/// SOCKS5 proxy (no authentication, or RFC 1929's user name and password when given
/// `credentials`), which tunnels to the target, or refuses as real proxies do.
///
/// Host names are resolved by the proxy from ``hosts`` only (anything else is "not found"), so a
/// test can use a name this machine cannot resolve and prove that the proxy, not the client,
/// looked it up (socks5h://, CONNECT).
public final class FakeProxyServer: Sendable {
  public enum Kind: Sendable {
    case httpConnect
    case socks5
  }

  public enum Behaviour: Sendable {
    /// Tunnels to the target (after checking credentials, if any are required).
    case tunnel
    /// Answers CONNECT with this status (403, 502, ...), or SOCKS5 with "not allowed".
    case refuse(status: Int)
    /// Closes the connection without a word once the request has arrived.
    case hangUp
  }

  /// One CONNECT or SOCKS5 request, as the proxy saw it.
  public struct Request: Equatable, Sendable {
    /// `host:port` as the client sent it: a name when the client left resolution to the proxy.
    public let target: String
    /// The `Proxy-Authorization` header of a CONNECT.
    public let proxyAuthorization: String?
  }

  public let port: Int
  public let kind: Kind
  let behaviour: Behaviour
  let requiredAuthorization: String?
  /// The SOCKS5 proxy's user name and password, when it demands them.
  let requiredCredentials: [String]?
  let hosts: [String: String]
  private let recorded = NIOLockedValueBox<[Request]>([])
  private let listener: any Channel

  private init(
    kind: Kind, behaviour: Behaviour, credentials: (String, String)?, hosts: [String: String],
    listener: any Channel, port: Int
  ) {
    self.kind = kind
    self.behaviour = behaviour
    self.requiredAuthorization = credentials.map {
      "Basic " + Data("\($0.0):\($0.1)".utf8).base64EncodedString()
    }
    self.requiredCredentials = credentials.map { [$0.0, $0.1] }
    self.hosts = hosts
    self.listener = listener
    self.port = port
  }

  /// Starts a proxy and returns once it listens.
  /// - Parameters:
  ///   - credentials: a user name and password the proxy demands (a CONNECT proxy answers 407
  ///     without them; a SOCKS5 proxy offers only RFC 1929's method).
  ///   - hosts: the names the proxy resolves, and to which address.
  public static func start(
    _ kind: Kind, behaviour: Behaviour = .tunnel, credentials: (String, String)? = nil,
    hosts: [String: String] = ["localhost": "127.0.0.1"]
  ) async throws -> FakeProxyServer {
    let box = NIOLockedValueBox<FakeProxyServer?>(nil)
    let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          guard let server = box.withLockedValue({ $0 }) else { return }
          try channel.pipeline.syncOperations.addHandler(FakeProxyConnection(server: server))
        }
      }
      .bind(host: "127.0.0.1", port: 0).get()
    let server = FakeProxyServer(
      kind: kind, behaviour: behaviour, credentials: credentials, hosts: hosts,
      listener: listener, port: listener.localAddress?.port ?? 0)
    box.withLockedValue { $0 = server }
    return server
  }

  /// Runs `body` with a started proxy, and stops it afterwards, also when `body` throws.
  public static func withRunning<Result>(
    _ kind: Kind, behaviour: Behaviour = .tunnel, credentials: (String, String)? = nil,
    hosts: [String: String] = ["localhost": "127.0.0.1"],
    _ body: (FakeProxyServer) async throws -> Result
  ) async throws -> Result {
    let server = try await start(kind, behaviour: behaviour, credentials: credentials, hosts: hosts)
    do {
      let result = try await body(server)
      await server.stop()
      return result
    } catch {
      await server.stop()
      throw error
    }
  }

  public func stop() async {
    try? await listener.close()
  }

  /// The proxy's URL, e.g. `http://127.0.0.1:PORT` or `socks5h://127.0.0.1:PORT`.
  public func url(scheme: String? = nil, userInfo: String? = nil) -> String {
    let scheme = scheme ?? (kind == .httpConnect ? "http" : "socks5h")
    return "\(scheme)://\(userInfo.map { "\($0)@" } ?? "")127.0.0.1:\(port)"
  }

  public var requests: [Request] { recorded.withLockedValue { $0 } }

  func record(_ request: Request) {
    recorded.withLockedValue { $0.append(request) }
  }
}
