import BTCPriceNetworking
import Foundation
import Testing

@Suite("Read a proxy URL")
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

  @Test func refusal_neverRepeatsThePassword() {
    do {
      _ = try ProxyEndpoint(parsing: "gopher://u:hunter2@p:1")
      Issue.record("accepted")
    } catch {
      #expect(!error.description.contains("hunter2"))
    }
  }
}
