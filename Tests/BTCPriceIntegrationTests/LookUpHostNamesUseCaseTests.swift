#if os(Linux)
  import BTCPriceTestSupport
  import NIOCore
  import NIOPosix
  import Testing

  @testable import BTCPriceNIO

  /// Host names looked up on SwiftNIO's thread pool, off libdispatch (Linux), with the system's
  /// real `getaddrinfo`: both of Happy Eyeballs' answers from one lookup, and a name that does
  /// not exist refused in both.
  @Suite("Look host names up off libdispatch", .hangLimit(.seconds(30)))
  struct LookUpHostNamesUseCaseTests {
    @Test func localhost_isAnsweredWithItsIPv4AddressAndThePortAskedFor() async throws {
      let resolver = ThreadPoolResolver(on: MultiThreadedEventLoopGroup.singleton.next())

      let v6 = resolver.initiateAAAAQuery(host: "localhost", port: 8443)
      let v4 = try await resolver.initiateAQuery(host: "localhost", port: 8443).get()

      #expect(v4.map(\.ipAddress).contains("127.0.0.1"), "\(v4)")
      #expect(v4.allSatisfy { $0.port == 8443 && $0.protocol == .inet })
      #expect(try await v6.get().allSatisfy { $0.protocol == .inet6 })
    }

    /// An address written as numbers needs no lookup: it is answered without the thread pool
    /// (here one that was never started, which refuses every lookup it is given).
    @Test(arguments: [("127.0.0.1", NIOBSDSocket.ProtocolFamily.inet), ("::1", .inet6)])
    func anAddressWrittenAsNumbers_isAnsweredWithoutThePool(
      host: String, family: NIOBSDSocket.ProtocolFamily
    ) async throws {
      let stopped = NIOThreadPool(numberOfThreads: 1)
      let resolver = ThreadPoolResolver(
        on: MultiThreadedEventLoopGroup.singleton.next(), pool: stopped)

      let v6 = try await resolver.initiateAAAAQuery(host: host, port: 8080).get()
      let v4 = try await resolver.initiateAQuery(host: host, port: 8080).get()

      let answered = family == .inet ? v4 : v6
      #expect(answered.map(\.ipAddress) == [host])
      #expect(answered.map(\.port) == [8080])
      #expect((family == .inet ? v6 : v4).isEmpty)
    }

    /// ... and a name does need the pool: the same stopped pool refuses it.
    @Test func aName_isLookedUpOnThePool() async {
      let stopped = NIOThreadPool(numberOfThreads: 1)
      let resolver = ThreadPoolResolver(
        on: MultiThreadedEventLoopGroup.singleton.next(), pool: stopped)

      let v6 = resolver.initiateAAAAQuery(host: "localhost", port: 8080)

      await #expect(throws: CancellationError.self) { try await v6.get() }
    }

    @Test func aNameThatDoesNotExist_failsBothAnswers() async {
      let resolver = ThreadPoolResolver(on: MultiThreadedEventLoopGroup.singleton.next())

      let v6 = resolver.initiateAAAAQuery(host: "exchange.invalid", port: 443)
      let v4 = resolver.initiateAQuery(host: "exchange.invalid", port: 443)

      await #expect(throws: ThreadPoolResolver.LookupFailure.self) { try await v6.get() }
      await #expect(throws: ThreadPoolResolver.LookupFailure.self) { try await v4.get() }
    }
  }
#endif
