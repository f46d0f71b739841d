import BTCPriceSources
import NIOCore
import NIOEmbedded
import Testing

@testable import BTCPriceNIO

/// The HTTP client's connection pipeline (`NIOHTTPClient.addHandlers`: SwiftNIO's codec and our
/// `ResponseHandler`) on an embedded channel. The cases here were found by the `http-response`
/// fuzz target (Fuzz/Findings/http-response).
@Suite("Collect an answer on the HTTP client's pipeline", .hangLimit(.seconds(30)))
struct CollectAnAnswerUseCaseTests {
  @Test func aClosedConnection_releasesItsHandler() throws {
    weak var released: ResponseHandler?
    try {
      let channel = EmbeddedChannel()
      released = try NIOHTTPClient.addHandlers(
        to: channel, tls: nil, serverName: nil, host: "exchange.test")
      try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).wait()
      try channel.writeInbound(ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}"))
      _ = try channel.finish(acceptAlreadyClosed: true)
    }()

    #expect(released == nil)
  }
}
