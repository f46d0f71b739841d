import BTCPriceCore
import BTCPriceNIO
import BTCPriceRuntime
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import NIOPosix
import Testing

/// A `wss://` stream behind a TLS server on 127.0.0.1 with the private CA of Tests/Fixtures/tls:
/// a refused certificate ends the stream with the same words as a REST request's (the ones
/// `doctor` and `--verbose` show), not NIOSSL's error text.
@Suite(
  "Tell a stream's TLS failures in words", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct TellAStreamsTLSFailuresInWordsUseCaseTests {
  let ca = FakeTLSServer.fixture("ca.pem")

  @Test func trustedAuthority_carriesTheStream() async throws {
    let (inbound, _) = try await open(
      serving: "localhost", trust: .file(path: ca, origin: .caFileSetting))

    #expect(inbound.contains(.text(FakeStreamMessage.binanceTrade(price: "68880.55"))))
  }

  @Test func untrustedAuthority_saysSoAndPointsToCAFile() async throws {
    let (_, ending) = try await open(serving: "localhost", trust: .system)

    #expect(
      ending
        == .unreachable(
          BTCHTTPClientError.tlsFailure(TLSFailureReason.unknownIssuer.description).description))
    #expect("\(ending)".contains("--ca-file"))
  }

  @Test func wrongHost_namesTheHostsTheCertificateIsFor() async throws {
    let (_, ending) = try await open(
      serving: "other-host", trust: .file(path: ca, origin: .caFileSetting))

    #expect(
      ending
        == .unreachable(
          BTCHTTPClientError.tlsFailure(
            TLSFailureReason.wrongHost(
              expected: "localhost", names: ["other.example", "www.other.example"]
            ).description
          ).description))
  }

  // MARK: Helpers

  /// Opens Binance's stream at `wss://localhost` through a TLS server showing `certificate`,
  /// has the stream send one trade, and returns what arrived and how the run ended.
  private func open(serving certificate: String, trust: TrustSource) async throws -> (
    [WebSocketInbound], PriceStreamError
  ) {
    let stream = try await FakeStreamServer.start()
    stream.repeat({ FakeStreamMessage.binanceTrade(price: "68880.55") }, every: .milliseconds(50))
    let tls: FakeTLSServer
    do {
      tls = try await FakeTLSServer.start(
        certificate: FakeTLSServer.fixture("\(certificate).pem"),
        key: FakeTLSServer.fixture("\(certificate).key"), backendPort: stream.port)
    } catch {
      await stream.stop()
      throw error
    }
    let connector = NIOWebSocketConnector(
      group: MultiThreadedEventLoopGroup.singleton, trust: trust)
    let inbound = Locked<[WebSocketInbound]>([])
    let url = URL(string: "wss://localhost:\(tls.port)/ws/btcusdt@trade")!
    let ended = Locked(false)
    let task = Task {
      let ending = await connector.run(url: url, subscriptions: []) { message in
        inbound.withValue { $0.append(message) }
        return nil
      }
      ended.withValue { $0 = true }
      return ending
    }
    // A refused certificate ends the run by itself; a trusted one is ended once a trade came.
    await eventually(within: .seconds(5)) { ended.value || !inbound.value.isEmpty }
    task.cancel()
    let ending = await task.value
    stream.stopRepeating()
    await tls.stop()
    await stream.stop()
    return (inbound.value, ending)
  }
}
