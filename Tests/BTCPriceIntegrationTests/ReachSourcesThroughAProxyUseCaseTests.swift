import BTCPriceNIO
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// The SwiftNIO client behind a real proxy on 127.0.0.1: an HTTP CONNECT proxy and a SOCKS5
/// proxy, each with its refusals. The fake exchange is named `exchange.test`, a name only the
/// proxy resolves, so a price that arrives proves the proxy did the lookup.
@Suite("Reach the sources through a proxy", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct ReachSourcesThroughAProxyUseCaseTests {
  @Test func connectProxy_tunnelsToTheSourceByName() async throws {
    try await withProxy(.httpConnect) { proxy, server, url in
      let response = try await get(url, through: proxy.url())
      #expect(response.status == 200)
      #expect(proxy.requests.map(\.target) == ["exchange.test:\(server.port)"])
      #expect(proxy.requests.first?.proxyAuthorization == nil)
    }
  }

  @Test func connectProxy_getsTheCredentialsOfItsURL() async throws {
    try await withProxy(.httpConnect, credentials: ("alice", "s3cret")) { proxy, _, url in
      let response = try await get(url, through: proxy.url(userInfo: "alice:s3cret"))
      #expect(response.status == 200)
      let expected = "Basic " + Data("alice:s3cret".utf8).base64EncodedString()
      #expect(proxy.requests.first?.proxyAuthorization == expected)
    }
  }

  @Test func connectProxy_407WithoutCredentials_asksForThemInTheURL() async throws {
    try await withProxy(.httpConnect, credentials: ("alice", "s3cret")) { proxy, _, url in
      let error = await failure(url, through: proxy.url())
      guard case .proxy(.authenticationRequired(_, sentCredentials: false)) = error else {
        Issue.record("got \(String(describing: error))")
        return
      }
      #expect(error?.description.contains("http://user:password@host:port") == true)
    }
  }

  @Test func connectProxy_407WithWrongCredentials_saysTheyWereRefusedWithoutShowingThem()
    async throws
  {
    try await withProxy(.httpConnect, credentials: ("alice", "s3cret")) { proxy, _, url in
      let error = await failure(url, through: proxy.url(userInfo: "alice:wrong"))
      guard case .proxy(.authenticationRequired(_, sentCredentials: true)) = error else {
        Issue.record("got \(String(describing: error))")
        return
      }
      #expect(error?.description.contains("wrong") == false)
      #expect(error?.description.contains("***@127.0.0.1") == true)
    }
  }

  @Test func connectProxy_403_isARefusalWithAdvice() async throws {
    try await withProxy(.httpConnect, behaviour: .refuse(status: 403)) { proxy, _, url in
      let error = await failure(url, through: proxy.url())
      #expect(error == .proxy(.refused(proxy: "http://127.0.0.1:\(proxy.port)", status: 403)))
      #expect(error?.description.contains("ask your administrator") == true)
    }
  }

  @Test func connectProxy_closingFirst_isAClosedTunnel() async throws {
    try await withProxy(.httpConnect, behaviour: .hangUp) { proxy, _, url in
      let error = await failure(url, through: proxy.url())
      #expect(error == .proxy(.closedTunnel(proxy: "http://127.0.0.1:\(proxy.port)")))
    }
  }

  /// The words docs/USAGE.md quotes for each refusal, advice included only where it helps.
  @Test func proxyFailures_areToldInTheWordsTheManualQuotes() {
    let proxy = "http://proxy.corp:3128"
    #expect(
      ProxyFailure.authenticationRequired(proxy: proxy, sentCredentials: false).description
        == "the proxy http://proxy.corp:3128 wants a user name and password (407)"
        + " — give them in the proxy URL: http://user:password@host:port")
    #expect(
      ProxyFailure.refused(proxy: proxy, status: 403).description
        == "the proxy http://proxy.corp:3128 refused to connect to the source (403)"
        + " — it may block this site or this port; ask your administrator to allow it,"
        + " or add the host to no-proxy if it is reachable directly")
    #expect(
      ProxyFailure.refused(proxy: proxy, status: 502).description
        == "the proxy http://proxy.corp:3128 refused to connect to the source (502)")
    #expect(
      ProxyFailure.closedTunnel(proxy: proxy).description
        == "the proxy http://proxy.corp:3128 closed the connection before the tunnel was open"
        + " — it may not allow CONNECT, or this is not an HTTP proxy (try socks5h://)")
    #expect(
      ProxyFailure.unreachable(proxy: proxy, reason: "connection refused").description
        == "cannot reach the proxy http://proxy.corp:3128: connection refused"
        + " — check the proxy setting or $https_proxy / $all_proxy")
  }

  @Test func socks5h_letsTheProxyResolveTheName() async throws {
    try await withProxy(.socks5) { proxy, server, url in
      let response = try await get(url, through: proxy.url(scheme: "socks5h"))
      #expect(response.status == 200)
      #expect(proxy.requests.map(\.target) == ["exchange.test:\(server.port)"])
    }
  }

  @Test func socks5_resolvesTheNameHereFirst() async throws {
    try await withProxy(.socks5) { proxy, server, _ in
      let url = server.url(for: .binance)
      var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
      components.host = "localhost"
      let response = try await get(components.url!, through: proxy.url(scheme: "socks5"))
      #expect(response.status == 200)
      #expect(proxy.requests.map(\.target) == ["127.0.0.1:\(server.port)"])
    }
  }

  @Test func socks5_refusal_isInWords() async throws {
    try await withProxy(.socks5, behaviour: .refuse(status: 0)) { proxy, _, url in
      let error = await failure(url, through: proxy.url())
      guard case .proxy(.socksRefused(_, let reason)) = error else {
        Issue.record("got \(String(describing: error))")
        return
      }
      #expect(reason == "connection not allowed by its rules")
    }
  }

  @Test func socks5h_withTheUserNameAndPasswordOfItsURL_tunnels() async throws {
    try await withProxy(.socks5, credentials: ("alice", "s3cret")) { proxy, server, url in
      let response = try await get(
        url, through: proxy.url(scheme: "socks5h", userInfo: "alice:s3cret"))

      #expect(response.status == 200)
      #expect(proxy.requests.map(\.target) == ["exchange.test:\(server.port)"])
    }
  }

  @Test func socks5_withAWrongPassword_saysTheProxyRefusedIt() async throws {
    try await withProxy(.socks5, credentials: ("alice", "s3cret")) { proxy, _, url in
      let error = await failure(url, through: proxy.url(userInfo: "alice:guess"))

      #expect(
        error
          == .proxy(
            .socksRefused(
              proxy: "socks5h://***@127.0.0.1:\(proxy.port)",
              reason: "it refused the user name and password in its URL — check them, or ask"
                + " your administrator which account it expects")))
      #expect(proxy.requests.isEmpty, "no CONNECT after a refused password")
    }
  }

  @Test func socks5_wantingAPassword_whenTheURLHasNone_saysToGiveIt() async throws {
    try await withProxy(.socks5, credentials: ("alice", "s3cret")) { proxy, _, url in
      let error = await failure(url, through: proxy.url())

      guard case .proxy(.socksRefused(_, let reason)) = error else {
        Issue.record("got \(String(describing: error))")
        return
      }
      #expect(reason.hasPrefix("it wants a user name and password — give them in the proxy URL"))
    }
  }

  @Test func socks5_hangingUpMidHandshake_isSaidForTheStepItHungUpAt() async throws {
    try await withProxy(.socks5, behaviour: .hangUp) { proxy, _, url in
      let error = await failure(url, through: proxy.url())

      #expect(
        error
          == .proxy(
            .socksRefused(
              proxy: "socks5h://127.0.0.1:\(proxy.port)",
              reason: "it closed the connection instead of connecting to the source")))
    }
  }

  @Test func noProxy_sendsTheHostDirect() async throws {
    try await withProxy(.httpConnect) { proxy, server, _ in
      let client = NIOHTTPClient(
        proxies: ProxySelector(explicit: proxy.url(), noProxy: "127.0.0.1", environment: [:]))
      let response = try await client.get(BTCHTTPRequest(url: server.url(for: .binance)))
      await client.shutdown()
      #expect(response.status == 200)
      #expect(proxy.requests.isEmpty)
    }
  }

  @Test func proxyNobodyListensOn_isUnreachableNotTheSource() async throws {
    try await withProxy(.httpConnect) { _, _, url in
      let port = try FakeExchangeServer.unusedPort()
      let error = await failure(url, through: "http://127.0.0.1:\(port)")
      #expect(
        error
          == .proxy(
            .unreachable(proxy: "http://127.0.0.1:\(port)", reason: "it refused the connection")))
    }
  }

  // MARK: Helpers

  private func withProxy(
    _ kind: FakeProxyServer.Kind, behaviour: FakeProxyServer.Behaviour = .tunnel,
    credentials: (String, String)? = nil,
    _ body: (FakeProxyServer, FakeExchangeServer, URL) async throws -> Void
  ) async throws {
    try await FakeExchangeServer.withRunning { server in
      await server.stub(.binance, .binance(price: "68901.23"))
      try await FakeProxyServer.withRunning(
        kind, behaviour: behaviour, credentials: credentials,
        hosts: ["exchange.test": "127.0.0.1", "localhost": "127.0.0.1"]
      ) { proxy in
        var components = URLComponents(
          url: server.url(for: .binance), resolvingAgainstBaseURL: false)!
        components.host = "exchange.test"
        try await body(proxy, server, components.url!)
      }
    }
  }

  private func get(_ url: URL, through proxy: String) async throws -> BTCHTTPResponse {
    let client = NIOHTTPClient(proxies: ProxySelector(explicit: proxy, environment: [:]))
    do {
      let response = try await client.get(BTCHTTPRequest(url: url))
      await client.shutdown()
      return response
    } catch {
      await client.shutdown()
      throw error
    }
  }

  private func failure(_ url: URL, through proxy: String) async -> BTCHTTPClientError? {
    do {
      _ = try await get(url, through: proxy)
      return nil
    } catch {
      return error as? BTCHTTPClientError
    }
  }
}
