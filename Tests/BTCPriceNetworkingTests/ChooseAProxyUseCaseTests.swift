import BTCPriceNetworking
import Foundation
import Testing

@Suite("Choose a proxy as curl does")
struct ChooseAProxyUseCaseTests {
  let https = URL(string: "https://api.binance.com/api/v3/ticker/price")!
  let http = URL(string: "http://api.binance.com/")!
  let wss = URL(string: "wss://stream.binance.com:9443/ws")!

  @Test func noVariables_goesDirect() throws {
    #expect(try ProxySelector(explicit: nil, environment: [:]).route(for: https) == nil)
  }

  @Test func httpsProxy_inEitherCase_carriesHTTPS() throws {
    for name in ["https_proxy", "HTTPS_PROXY"] {
      let route = try ProxySelector(explicit: nil, environment: [name: "proxy.corp:3128"])
        .route(for: https)
      #expect(route?.proxy == ProxyEndpoint(kind: .http, host: "proxy.corp", port: 3128))
      #expect(route?.origin == .environment(variable: name))
    }
  }

  @Test func lowerCase_winsOverUpperCase() throws {
    let route = try ProxySelector(
      explicit: nil, environment: ["HTTPS_PROXY": "upper:1", "https_proxy": "lower:2"]
    ).route(for: https)
    #expect(route?.proxy.host == "lower")
  }

  @Test func upperCaseHTTPProxy_isIgnoredAsCurlDoes() throws {
    let selector = ProxySelector(explicit: nil, environment: ["HTTP_PROXY": "evil:1"])
    #expect(try selector.route(for: http) == nil)
    let lower = ProxySelector(explicit: nil, environment: ["http_proxy": "good:1"])
    #expect(try lower.route(for: http)?.proxy.host == "good")
  }

  @Test func allProxy_isTheFallbackForEveryScheme() throws {
    let selector = ProxySelector(explicit: nil, environment: ["ALL_PROXY": "socks5h://s:1080"])
    #expect(try selector.route(for: https)?.proxy.kind == .socks5h)
    #expect(try selector.route(for: http)?.origin == .environment(variable: "ALL_PROXY"))
  }

  @Test func webSocketsOverTLS_useTheHTTPSProxy() throws {
    let selector = ProxySelector(explicit: nil, environment: ["https_proxy": "p:8080"])
    #expect(try selector.route(for: wss)?.proxy.port == 8080)
  }

  @Test func explicitProxy_winsOverTheEnvironment() throws {
    let route = try ProxySelector(
      explicit: "http://mine:9", environment: ["https_proxy": "theirs:1"]
    ).route(for: https)
    #expect(route == .init(proxy: .init(kind: .http, host: "mine", port: 9), origin: .setting))
  }

  @Test func emptyExplicitProxy_turnsTheEnvironmentsOff() throws {
    let selector = ProxySelector(explicit: "", environment: ["https_proxy": "theirs:1"])
    #expect(try selector.route(for: https) == nil)
  }

  @Test func noProxy_appliesToEveryProxyChosen() throws {
    let environment = ["https_proxy": "p:1", "NO_PROXY": ".binance.com"]
    #expect(try ProxySelector(explicit: nil, environment: environment).route(for: https) == nil)
    #expect(
      try ProxySelector(explicit: "q:2", environment: environment).route(for: https) == nil)
    #expect(
      try ProxySelector(explicit: "q:2", noProxy: "", environment: environment)
        .route(for: https)?.proxy.host == "q")
  }

  @Test func explanation_namesTheProxyAndItsOriginButNeverItsPassword() {
    let selector = ProxySelector(
      explicit: nil, environment: ["https_proxy": "http://u:pw@p:3128", "no_proxy": "kraken.com"])
    #expect(selector.explain(for: https) == "through http://***@p:3128 (from $https_proxy)")
    #expect(
      selector.explain(for: URL(string: "https://api.kraken.com/")!)
        == "direct (no-proxy lists it)")
    #expect(ProxySelector(explicit: nil, environment: [:]).explain(for: https) == "direct")
  }
}
