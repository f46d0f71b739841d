import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Choose a proxy as curl does", .hangLimit(.seconds(30)))
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

  /// Each scheme's variables in the order curl reads them: with every one set, the first wins;
  /// unset it and the next one does, down to `ALL_PROXY`.
  @Test(arguments: [
    ("https://api.binance.com/", ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]),
    (
      "wss://stream.binance.com:9443/ws",
      ["wss_proxy", "WSS_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
    ),
    ("ws://stream.example/ws", ["ws_proxy", "WS_PROXY", "http_proxy", "all_proxy", "ALL_PROXY"]),
    ("http://api.example/", ["http_proxy", "all_proxy", "ALL_PROXY"]),
  ])
  func eachScheme_readsItsVariablesInCurlsOrder(url: String, order: [String]) throws {
    var environment = Dictionary(uniqueKeysWithValues: order.map { ($0, "\($0):1") })
    for variable in order {
      let route = try ProxySelector(explicit: nil, environment: environment)
        .route(for: URL(string: url)!)
      #expect(route?.proxy.host == variable, "\(url)")
      #expect(route?.origin == .environment(variable: variable), "\(url)")
      environment[variable] = nil
    }
  }

  /// The variables of other schemes (and `HTTP_PROXY`, which CGI lets a request set) carry
  /// nothing: http and ws never read the https ones, https never reads http_proxy.
  @Test(arguments: [
    ("https://api.binance.com/", ["http_proxy", "HTTP_PROXY", "ws_proxy", "wss_proxy"]),
    ("wss://stream.binance.com:9443/ws", ["http_proxy", "HTTP_PROXY", "ws_proxy", "WS_PROXY"]),
    ("ws://stream.example/ws", ["HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "wss_proxy"]),
    ("http://api.example/", ["HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "ws_proxy"]),
  ])
  func otherSchemesVariables_leaveTheURLDirect(url: String, ignored: [String]) throws {
    let environment = Dictionary(uniqueKeysWithValues: ignored.map { ($0, "\($0):1") })
    #expect(
      try ProxySelector(explicit: nil, environment: environment).route(for: URL(string: url)!)
        == nil)
  }

  @Test func schemeInCapitals_readsThatSchemesVariable() throws {
    let selector = ProxySelector(
      explicit: nil, environment: ["https_proxy": "secure:1", "http_proxy": "plain:2"])
    #expect(
      try selector.route(for: URL(string: "HTTPS://api.binance.com/")!)?.proxy.host == "secure")
  }

  /// An empty variable is an unset one, as curl_getenv() makes it: the next variable is read.
  @Test func emptyVariable_isReadAsUnset() throws {
    let upper = ProxySelector(
      explicit: nil, environment: ["https_proxy": "", "HTTPS_PROXY": "u:1"])
    #expect(try upper.route(for: https)?.proxy.host == "u")
    let all = ProxySelector(explicit: nil, environment: ["https_proxy": " ", "all_proxy": "a:1"])
    #expect(try all.route(for: https)?.origin == .environment(variable: "all_proxy"))
    #expect(
      try ProxySelector(explicit: nil, environment: ["https_proxy": ""]).route(for: https) == nil)
  }

  @Test func blankExplicitProxy_turnsTheEnvironmentsOffToo() throws {
    let selector = ProxySelector(explicit: "  ", environment: ["https_proxy": "theirs:1"])
    #expect(try selector.route(for: https) == nil)
  }

  /// The docs' own example: lower case wins for the no-proxy list as for the proxies.
  @Test func lowerCaseNoProxy_winsOverUpperCase() throws {
    let selector = ProxySelector(
      explicit: nil,
      environment: ["https_proxy": "p:1", "no_proxy": "kraken.com", "NO_PROXY": "binance.com"])
    #expect(try selector.route(for: https)?.proxy.host == "p")
    #expect(try selector.route(for: URL(string: "https://api.kraken.com/")!) == nil)
  }

  @Test func emptyLowerCaseNoProxy_letsUpperCaseSpeak() throws {
    let selector = ProxySelector(
      explicit: nil, environment: ["https_proxy": "p:1", "no_proxy": "", "NO_PROXY": "binance.com"])
    #expect(try selector.route(for: https) == nil)
  }

  /// "no-proxy lists it" only when a proxy would otherwise have been taken.
  @Test func explanation_saysNoProxyOnlyWhenAProxyIsSet() {
    let url = URL(string: "https://api.kraken.com/")!
    for environment in [
      ["no_proxy": "kraken.com"], ["NO_PROXY": "kraken.com", "HOME": "/home/ana"],
      ["no_proxy": "kraken.com", "https_proxy": " "],
    ] {
      #expect(
        ProxySelector(explicit: nil, environment: environment).explain(for: url) == "direct",
        "\(environment)")
    }
    #expect(
      ProxySelector(explicit: "", noProxy: "kraken.com", environment: [:]).explain(for: url)
        == "direct")
    #expect(
      ProxySelector(explicit: "q:2", noProxy: "kraken.com", environment: [:]).explain(for: url)
        == "direct (no-proxy lists it)")
    #expect(
      ProxySelector(explicit: nil, environment: ["no_proxy": "kraken.com", "ALL_PROXY": "a:1"])
        .explain(for: url) == "direct (no-proxy lists it)")
  }

  @Test func explanation_ofAnUnusableProxy_saysWhyWithoutThePassword() {
    let selector = ProxySelector(explicit: nil, environment: ["https_proxy": "ftp://u:hunter2@p:1"])
    #expect(
      selector.explain(for: https)
        == "nowhere: the proxy URL has the scheme \"ftp\"; use http://, socks5:// or socks5h://")
  }
}
