import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Read a proxy URL", .hangLimit(.seconds(30)))
struct ProxyEndpointTests {
  @Test func noSchemeAndNoPort_isHTTPOnPort1080() throws {
    #expect(try ProxyEndpoint(parsing: "proxy") == .init(kind: .http, host: "proxy", port: 1080))
  }

  @Test func userInfo_becomesBasicCredentialsAndIsNeverShown() throws {
    let proxy = try ProxyEndpoint(parsing: "http://al%40ice:s3cr%3At@proxy:3128")
    #expect(proxy.username == "al@ice")
    #expect(proxy.password == "s3cr:t")
    #expect(proxy.proxyAuthorization == "Basic " + Data("al@ice:s3cr:t".utf8).base64EncodedString())
    #expect(proxy.redacted == "http://***@proxy:3128")
    #expect(!"\(proxy)".contains("s3cr"))
  }

  @Test(arguments: ["ftp://proxy:21", "http://:8080", "http://p:99999"])
  func unusableURL_isRefusedInWords(text: String) {
    #expect(throws: ProxyURLError.self) { try ProxyEndpoint(parsing: text) }
  }

  // Found by the proxy-url fuzz target (Fuzz/Findings/proxy-url): the brackets were taken off
  // after the check for a host, which left an empty one.
  @Test(arguments: ["[   ", "[", "http://[]:8080", "socks5h://[]"])
  func aHostOfBracketsAlone_isRefused(text: String) {
    #expect(throws: ProxyURLError.self) { try ProxyEndpoint(parsing: text) }
  }

  // Found by the proxy-url fuzz target: the host comes percent-decoded, `al@ice` here.
  @Test(arguments: ["http://al%40ice:", "http://pro%2Fxy:3128", "http://a%20b:3128"])
  func aHostThatDecodesToNoHostName_isRefused(text: String) {
    #expect(throws: ProxyURLError.self) { try ProxyEndpoint(parsing: text) }
  }

  @Test func refusal_neverRepeatsThePassword() {
    do {
      _ = try ProxyEndpoint(parsing: "gopher://u:hunter2@p:1")
      Issue.record("accepted")
    } catch {
      #expect(!error.description.contains("hunter2"))
    }
  }

  @Test(arguments: [
    ("socks5://s:1080", ProxyEndpoint.Kind.socks5), ("socks5h://s:1080", .socks5h),
    ("SOCKS5H://s:1080", .socks5h), ("HTTP://s:1080", .http),
  ])
  func scheme_choosesTheKindWhateverItsCase(text: String, kind: ProxyEndpoint.Kind) throws {
    #expect(try ProxyEndpoint(parsing: text).kind == kind)
  }

  @Test func portsOneTo65535_areTaken() throws {
    #expect(try ProxyEndpoint(parsing: "p:65535").port == 65_535)
    #expect(try ProxyEndpoint(parsing: "p:1").port == 1)
  }

  @Test(arguments: [
    (
      "ftp://proxy:21", "the proxy URL has the scheme \"ftp\"; use http://, socks5:// or socks5h://"
    ),
    ("http://:8080", "the proxy URL names no host"),
    ("http://p:99999", "the proxy URL has a port out of range"),
    ("http://p:65536", "the proxy URL has a port out of range"),
    ("http://p:0", "the proxy URL has a port out of range"),
  ])
  func unusableURL_saysWhatIsWrong(text: String, words: String) {
    #expect(throws: ProxyURLError.self) { try ProxyEndpoint(parsing: text) }
    do {
      _ = try ProxyEndpoint(parsing: text)
    } catch {
      #expect(error.description == words)
    }
  }

  @Test func ipv6Proxy_isShownInBrackets() throws {
    let proxy = try ProxyEndpoint(parsing: "http://[fd00::1]:3128")
    #expect(proxy.host == "fd00::1")
    #expect(proxy.redacted == "http://[fd00::1]:3128")
  }

  @Test func userWithoutPassword_sendsAnEmptyPassword() throws {
    let proxy = try ProxyEndpoint(parsing: "http://alice@proxy:3128")
    #expect(proxy.proxyAuthorization == "Basic " + Data("alice:".utf8).base64EncodedString())
    #expect(proxy.redacted == "http://***@proxy:3128")
    #expect(try ProxyEndpoint(parsing: "proxy:3128").proxyAuthorization == nil)
  }
}
