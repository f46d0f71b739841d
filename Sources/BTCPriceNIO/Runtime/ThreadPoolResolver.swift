// NIOCore outside the `#if`: the extension below names `EventLoop` on every system, and imports
// are per file (NIOPosix re-exports only the C library, so a Mac saw no `EventLoop`).
import NIOCore
import NIOPosix

#if os(Linux)
  import Glibc

  /// Looks a connection's host name up with `getaddrinfo` on SwiftNIO's thread pool (Linux).
  ///
  /// SwiftNIO's own resolver runs `getaddrinfo` on a Dispatch queue, and the first job on
  /// libdispatch's pool arms libdispatch's pool monitor, a timer that then wakes the process
  /// once a second for the rest of its life (docs/PERFORMANCE.md, "Threads and wake-ups";
  /// BTCPriceCommandLine's `ConcurrencyPool` keeps Swift's tasks off that pool for the same
  /// reason). The thread pool is threads of SwiftNIO's own. As SwiftNIO's does, one lookup (any
  /// family) answers both of Happy Eyeballs' questions: the IPv6 addresses and the IPv4 ones.
  /// One resolver per connection.
  ///
  /// An address written as numbers (`127.0.0.1`, `::1`) is no name: it is answered at once, on
  /// the loop, and the thread pool is not started for it (its threads would be a large part of
  /// a one-shot's start-up: docs/PERFORMANCE.md, "The one-shot").
  final class ThreadPoolResolver: Resolver, Sendable {
    /// A name the system could not look up: `getaddrinfo`'s code and words.
    struct LookupFailure: Error, Equatable {
      let host: String
      let code: Int32
      let reason: String
    }

    private let v4: EventLoopPromise<[SocketAddress]>
    private let v6: EventLoopPromise<[SocketAddress]>
    /// Asked for only when a name needs looking up: the shared pool starts its threads at its
    /// first use.
    private let pool: @Sendable () -> NIOThreadPool

    init(
      on loop: any EventLoop,
      pool: @autoclosure @escaping @Sendable () -> NIOThreadPool = .singleton
    ) {
      v4 = loop.makePromise()
      v6 = loop.makePromise()
      self.pool = pool
    }

    /// Answered by the lookup ``initiateAAAAQuery(host:port:)`` starts (Happy Eyeballs asks
    /// for both, the IPv6 addresses first).
    func initiateAQuery(host: String, port: Int) -> EventLoopFuture<[SocketAddress]> {
      v4.futureResult
    }

    func initiateAAAAQuery(host: String, port: Int) -> EventLoopFuture<[SocketAddress]> {
      let (v4, v6) = (v4, v6)
      if let address = try? SocketAddress(ipAddress: host, port: port) {
        v4.succeed(address.protocol == .inet ? [address] : [])
        v6.succeed(address.protocol == .inet6 ? [address] : [])
        return v6.futureResult
      }
      pool().submit { state in
        guard case .active = state else {
          v4.fail(CancellationError())
          v6.fail(CancellationError())
          return
        }
        switch Self.lookUp(host, port: port) {
        case .success(let addresses):
          v4.succeed(addresses.filter { $0.protocol == .inet })
          v6.succeed(addresses.filter { $0.protocol == .inet6 })
        case .failure(let failure):
          v4.fail(failure)
          v6.fail(failure)
        }
      }
      return v6.futureResult
    }

    /// `getaddrinfo` cannot be interrupted: a lookup already started runs to its end.
    func cancelQueries() {}

    /// Every TCP address of `host`, in the order the system gives them; blocks.
    static func lookUp(_ host: String, port: Int) -> Result<[SocketAddress], LookupFailure> {
      var hints = addrinfo()
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
      hints.ai_protocol = Int32(IPPROTO_TCP)
      var first: UnsafeMutablePointer<addrinfo>?
      let code = getaddrinfo(host, String(port), &hints, &first)
      guard code == 0 else {
        return .failure(
          LookupFailure(host: host, code: code, reason: String(cString: gai_strerror(code))))
      }
      defer { freeaddrinfo(first) }
      var addresses: [SocketAddress] = []
      var next = first
      while let info = next?.pointee {
        next = info.ai_next
        guard let address = info.ai_addr else { continue }
        switch info.ai_family {
        case AF_INET:
          address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
            addresses.append(SocketAddress($0.pointee, host: host))
          }
        case AF_INET6:
          address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
            addresses.append(SocketAddress($0.pointee, host: host))
          }
        default: continue
        }
      }
      return .success(addresses)
    }
  }
#endif

extension ClientBootstrap {
  /// On Linux, host names looked up by ``ThreadPoolResolver`` rather than on a Dispatch queue;
  /// elsewhere SwiftNIO's own lookup (Darwin's libdispatch has no pool monitor to wake).
  func lookingUpNamesOffDispatch(on loop: any EventLoop) -> ClientBootstrap {
    #if os(Linux)
      return resolver(ThreadPoolResolver(on: loop))
    #else
      return self
    #endif
  }
}
