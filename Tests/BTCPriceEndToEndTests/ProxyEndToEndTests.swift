import BTCPriceTestSupport
import Foundation
import Testing

/// The built binary behind a real proxy on 127.0.0.1. The fake exchange is named
/// `exchange.test`, which only the proxy resolves: a price on stdout proves the request went
/// through the proxy.
extension BinaryEndToEndTests {
  @Suite("btc-price behind a proxy", .serialized, .timeLimit(.minutes(2)), .hangLimit(.seconds(30)))
  struct ProxyEndToEndTests {
    @Test func proxyOption_carriesEverySourceAndVerboseSaysWhich() async throws {
      try await withExchangeAndProxy { server, proxy in
        let run = try BinaryProcess(
          arguments(server) + ["--proxy", proxy.url(userInfo: "alice:s3cret"), "--verbose"])
        let status = await run.waitForExit()

        #expect(status == 0, "\(run.stderrText)")
        #expect(run.stdoutText.first?.hasSuffix("$68,901.23") == true)
        #expect(proxy.requests.map(\.target) == ["exchange.test:\(server.port)"])
        #expect(
          run.stderrText.contains(
            "binance goes through http://***@127.0.0.1:\(proxy.port) (from the proxy setting)"))
        #expect(!run.stderrText.contains("s3cret"))
      }
    }

    @Test func lowerCaseHTTPProxyVariable_isHonoured() async throws {
      try await withExchangeAndProxy { server, proxy in
        let run = try BinaryProcess(
          arguments(server), environment: ["http_proxy": proxy.url()])
        let status = await run.waitForExit()

        #expect(status == 0, "\(run.stderrText)")
        #expect(proxy.requests.count == 1)
      }
    }

    @Test func emptyProxyOption_overridesTheEnvironment() async throws {
      try await withExchangeAndProxy { server, proxy in
        let run = try BinaryProcess(
          arguments(server) + ["--proxy", ""], environment: ["http_proxy": proxy.url()])
        _ = await run.waitForExit()

        // Direct, so exchange.test is not found here: the proxy saw nothing.
        #expect(proxy.requests.isEmpty)
      }
    }

    @Test func badProxyURL_isAUsageErrorThatHidesThePassword() async throws {
      try await withExchangeAndProxy { server, _ in
        let run = try BinaryProcess(arguments(server) + ["--proxy", "ftp://u:hunter2@p:1"])
        let status = await run.waitForExit()

        #expect(status == 64)
        #expect(run.stderrText.contains("--proxy"))
        #expect(!run.stderrText.contains("hunter2"))
      }
    }

    private func withExchangeAndProxy(
      _ body: (FakeExchangeServer, FakeProxyServer) async throws -> Void
    ) async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))
        try await FakeProxyServer.withRunning(
          .httpConnect, hosts: ["exchange.test": "127.0.0.1"]
        ) { proxy in
          try await body(server, proxy)
        }
      }
    }

    private func arguments(_ server: FakeExchangeServer) -> [String] {
      let url = server.url(for: .binance).absoluteString
        .replacingOccurrences(of: "127.0.0.1", with: "exchange.test")
      return [
        "--once", "--no-cache", "--sources", "binance", "--primary-timeout", "3",
        "--binance-url", url,
      ]
    }
  }
}
