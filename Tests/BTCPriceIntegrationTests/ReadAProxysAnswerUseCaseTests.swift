import BTCPriceCore
import BTCPriceRuntime
import BTCPriceSources
import BTCPriceTestSupport
import NIOCore
import NIOEmbedded
import Testing

@testable import BTCPriceNIO

// Linux only for now: in scripts/check-darwin-view's Mac view, `assumeIsolated()` on an event
// loop future makes the compiler crash reading SwiftNIO's bodies built against Glibc (a
// limit of that check, not of the Mac). The cases run here, in every CI run.
#if os(Linux)
  /// An HTTP proxy's answer to CONNECT, on an embedded channel: when the tunnel counts as open,
  /// and where the bytes after the answer go. The real proxy on 127.0.0.1 is in
  /// `ReachSourcesThroughAProxyUseCaseTests`; the cases here were found by the `connect-reply`
  /// fuzz target (Fuzz/Findings/connect-reply).
  @Suite("Read an HTTP proxy's answer to CONNECT", .hangLimit(.seconds(30)))
  struct ReadAProxysAnswerUseCaseTests {
    @Test func bytesAfterTheAnswer_reachTheHandlersAddedOnSuccess() throws {
      let (channel, outcome, seenAtSuccess) = try makeSUT()

      try channel.writeInbound(
        ByteBuffer(string: "HTTP/1.1 200 Connection established\r\n\r\nSSH-2.0-x\r\n"))

      #expect(outcome.value == "ok")
      #expect(seenAtSuccess.value == nil)
      #expect(try channel.readInbound(as: ByteBuffer.self) == ByteBuffer(string: "SSH-2.0-x\r\n"))
    }

    /// The status line was read as Characters, and CR LF is one: the "line" ran on into the next.
    @Test func aStatusLineWithoutAStatus_isRefused_whateverTheNextLineHolds() throws {
      let (channel, outcome, _) = try makeSUT()

      try channel.writeInbound(ByteBuffer(string: "HTTP/1.1\r\nVia: x 200 OK\r\n\r\n"))

      #expect(
        outcome.value?.hasPrefix(
          "the proxy http://proxy:3128 closed the connection before the tunnel was open") == true)
    }

    // MARK: Helpers

    /// A connected embedded channel with the CONNECT handler in its pipeline; `outcome` is "ok"
    /// once the tunnel is up, or the failure's words; `seenAtSuccess`, what had passed the handler
    /// when the tunnel's user was told it is up.
    private func makeSUT() throws -> (EmbeddedChannel, Locked<String?>, Locked<ByteBuffer?>) {
      let channel = EmbeddedChannel()
      let promise = channel.eventLoop.makePromise(of: Void.self)
      let outcome = Locked<String?>(nil)
      let seenAtSuccess = Locked<ByteBuffer?>(nil)
      promise.futureResult.assumeIsolated().whenComplete { result in
        switch result {
        case .success:
          outcome.withValue { $0 = "ok" }
          seenAtSuccess.withValue { $0 = try? channel.readInbound(as: ByteBuffer.self) }
        case .failure(let error):
          outcome.withValue { $0 = "\(error)" }
        }
      }
      try channel.pipeline.syncOperations.addHandler(
        HTTPConnectTunnelHandler(
          host: "exchange.test", port: 443, proxy: try ProxyEndpoint(parsing: "http://proxy:3128"),
          promise: promise))
      try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 3128)).wait()
      return (channel, outcome, seenAtSuccess)
    }
  }
#endif
