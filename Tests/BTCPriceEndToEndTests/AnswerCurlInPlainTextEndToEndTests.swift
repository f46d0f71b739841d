import BTCPriceNIO
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `serve`'s `/` answers `curl` the way `curl rate.sx` does, in plain text, and a browser with
/// the page, over real HTTP.
extension BinaryEndToEndTests {
  @Suite(
    "btc-price serve answers curl in plain text", .serialized, .timeLimit(.minutes(1)),
    .hangLimit(.seconds(30)))
  struct AnswerCurlInPlainTextEndToEndTests {
    @Test func curl_getsThePriceLine_aBrowserThePage() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))
        let run = try BinaryProcess(
          ["serve", "--port", "0", "--sources", "binance", "--no-cache"] + server.urlArguments)
        defer { run.send(SIGKILL) }
        #expect(await run.waitForLines(1))
        let address = try #require(run.serveAddress, "\(run.stdoutText) \(run.stderrText)")
        let client = NIOHTTPClient(tls: ClientTLS(trust: .system))
        defer { Task { await client.shutdown() } }

        var text = ""
        for _ in 0..<100 where !text.contains("68,901.23") {
          text = try await get(client, address, ["User-Agent": "curl/8.5.0", "Accept": "*/*"]).body
          if !text.contains("68,901.23") { try await Task.sleep(for: .milliseconds(50)) }
        }
        let curl = try await get(client, address, ["User-Agent": "curl/8.5.0", "Accept": "*/*"])
        let browser = try await get(
          client, address,
          [
            "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0",
            "Accept": "text/html,application/xhtml+xml,*/*;q=0.8",
          ])
        let asked = try await get(client, address, ["Accept": "text/plain"])

        #expect(curl.type == "text/plain; charset=utf-8")
        #expect(curl.body.hasSuffix(" - $68,901.23\n"), "\(curl.body)")
        #expect(curl.vary == "Accept, User-Agent")
        #expect(browser.type == "text/html; charset=utf-8")
        #expect(browser.body.hasPrefix("<!doctype html>"), "\(browser.body.prefix(80))")
        #expect(browser.vary == "Accept, User-Agent")
        #expect(asked.type == "text/plain; charset=utf-8")
      }
    }

    private func get(_ client: NIOHTTPClient, _ address: String, _ headers: [String: String])
      async throws -> (type: String?, vary: String?, body: String)
    {
      let response = try await client.get(
        BTCHTTPRequest(
          url: URL(string: address + "/")!, headers: headers.map { ($0.key, $0.value) },
          maxBodySize: 1 << 20))
      return (
        response.headers["content-type"], response.headers["vary"],
        String(decoding: response.body, as: UTF8.self)
      )
    }
  }
}
