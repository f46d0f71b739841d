import BTCPriceNIO
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// TLS servers on 127.0.0.1 with a private CA (Tests/Fixtures/tls, made by
/// scripts/make-tls-fixtures): the CA trusted through `--ca-file` or `SSL_CERT_FILE` (read when
/// the tool starts), and each kind of failure told in words.
@Suite(
  "Trust a private CA and tell TLS failures in words", .timeLimit(.minutes(1)),
  .hangLimit(.seconds(30)))
struct TellTLSFailuresInWordsUseCaseTests {
  let ca = FakeTLSServer.fixture("ca.pem")

  @Test func caFile_trustsThePrivateAuthority() async throws {
    let response = try await get(
      serving: "localhost", trust: .file(path: ca, origin: .caFileSetting))
    #expect(response.status == 200)
  }

  @Test func sslCertFile_isHonoured() async throws {
    let trust = TrustSource.choose(caFile: nil, environment: ["SSL_CERT_FILE": ca])
    #expect(trust == .file(path: ca, origin: .environment(variable: "SSL_CERT_FILE")))
    let response = try await get(serving: "localhost", trust: trust)
    #expect(response.status == 200)
  }

  @Test func caFileSetting_winsOverTheEnvironment() {
    let trust = TrustSource.choose(
      caFile: "/mine.pem", environment: ["SSL_CERT_FILE": "/theirs.pem", "SSL_CERT_DIR": "/d"])
    #expect(trust == .file(path: "/mine.pem", origin: .caFileSetting))
  }

  /// OpenSSL's order: SSL_CERT_FILE over SSL_CERT_DIR; an empty value (or an empty ca-file) is
  /// not there at all.
  @Test func sslCertFile_winsOverSSLCertDir_andEmptyValuesAreUnset() {
    let both = ["SSL_CERT_FILE": "/theirs.pem", "SSL_CERT_DIR": "/d"]
    #expect(
      TrustSource.choose(caFile: nil, environment: both)
        == .file(path: "/theirs.pem", origin: .environment(variable: "SSL_CERT_FILE")))
    #expect(
      TrustSource.choose(caFile: "", environment: both)
        == .file(path: "/theirs.pem", origin: .environment(variable: "SSL_CERT_FILE")))
    #expect(
      TrustSource.choose(caFile: nil, environment: ["SSL_CERT_FILE": "", "SSL_CERT_DIR": "/d"])
        == .directory(path: "/d", origin: .environment(variable: "SSL_CERT_DIR")))
    #expect(TrustSource.choose(caFile: nil, environment: ["SSL_CERT_DIR": ""]) == .system)
  }

  @Test func untrustedAuthority_saysSoAndPointsToCAFile() async throws {
    let error = await failure(serving: "localhost", trust: .system)
    #expect(error == .tlsFailure(TLSFailureReason.unknownIssuer.description))
    #expect(error?.description.contains("--ca-file") == true)
  }

  @Test func wrongHost_namesTheHostsTheCertificateIsFor() async throws {
    let error = await failure(serving: "other-host", trust: .file(path: ca, origin: .caFileSetting))
    #expect(
      error
        == .tlsFailure(
          TLSFailureReason.wrongHost(
            expected: "localhost", names: ["other.example", "www.other.example"]
          ).description))
  }

  @Test func expiredCertificate_saysWhen() async throws {
    let error = await failure(serving: "expired", trust: .file(path: ca, origin: .caFileSetting))
    #expect(error?.description.contains("the certificate expired on 2021-01-01") == true)
  }

  @Test func plainHTTPOnAnHTTPSURL_isNotTLS() async throws {
    try await FakeExchangeServer.withRunning { server in
      let client = NIOHTTPClient()
      let url = URL(string: "https://localhost:\(server.port)/api/v3/ticker/price")!
      let error = await #expect(throws: BTCHTTPClientError.self) {
        try await client.get(BTCHTTPRequest(url: url))
      }
      await client.shutdown()
      #expect(error == .tlsFailure(TLSFailureReason.notTLS.description))
    }
  }

  /// `ClientTLS` reads the authorities when the tool starts, not at the first connection on the
  /// event loop that also answers the streams' pings.
  @Test func theCAFile_isReadWhenPrepared_notAtTheFirstConnection() async throws {
    let copy = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ca-\(UUID().uuidString).pem")
    try FileManager.default.copyItem(at: URL(fileURLWithPath: ca), to: copy)
    let tls = ClientTLS(trust: .file(path: copy.path, origin: .caFileSetting))
    tls.prepare()
    try FileManager.default.removeItem(at: copy)

    let response = try await get(serving: "localhost", tls: tls)

    #expect(response.status == 200)
  }

  @Test func aCAFileThatCannotBeRead_failsEveryTLSConnectionAlike() async {
    let tls = ClientTLS(trust: .file(path: "/nonexistent/ca.pem", origin: .caFileSetting))

    let first = await failure(serving: "localhost", tls: tls)
    let second = await failure(serving: "localhost", tls: tls)

    #expect(first != nil)
    #expect(first == second)
  }

  // MARK: Helpers

  private func get(serving certificate: String, trust: TrustSource) async throws -> BTCHTTPResponse
  {
    try await get(serving: certificate, tls: ClientTLS(trust: trust))
  }

  private func get(serving certificate: String, tls context: ClientTLS) async throws
    -> BTCHTTPResponse
  {
    try await FakeExchangeServer.withRunning { server in
      await server.stub(.binance, .binance(price: "68901.23"))
      let tls = try await FakeTLSServer.start(
        certificate: FakeTLSServer.fixture("\(certificate).pem"),
        key: FakeTLSServer.fixture("\(certificate).key"), backendPort: server.port)
      let client = NIOHTTPClient(tls: context)
      let url = URL(string: "https://localhost:\(tls.port)/api/v3/ticker/price?symbol=BTCUSDT")!
      do {
        let response = try await client.get(BTCHTTPRequest(url: url))
        await client.shutdown()
        await tls.stop()
        return response
      } catch {
        await client.shutdown()
        await tls.stop()
        throw error
      }
    }
  }

  private func failure(serving certificate: String, trust: TrustSource) async -> BTCHTTPClientError?
  {
    await failure(serving: certificate, tls: ClientTLS(trust: trust))
  }

  private func failure(serving certificate: String, tls: ClientTLS) async -> BTCHTTPClientError? {
    do {
      _ = try await get(serving: certificate, tls: tls)
      return nil
    } catch {
      return error as? BTCHTTPClientError
    }
  }
}
