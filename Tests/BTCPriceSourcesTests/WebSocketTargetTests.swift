import BTCPriceCore
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// The one check every WebSocket transport makes before it opens anything.
@Suite("Read where a stream's URL points", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct WebSocketTargetTests {
  @Test(arguments: [
    ("wss://data-stream.binance.vision/ws/btcusdt@trade", "data-stream.binance.vision", 443, true),
    ("ws://127.0.0.1:8080/ws", "127.0.0.1", 8080, false),
    ("WS://example.test/", "example.test", 80, false),
    ("wss://ws.kraken.com:8443/v2", "ws.kraken.com", 8443, true),
  ])
  func of_readsHostPortAndTLS(url: String, host: String, port: Int, secure: Bool) throws {
    let target = try WebSocketTarget.of(try #require(URL(string: url))).get()

    #expect(target == WebSocketTarget(host: host, port: port, secure: secure))
  }

  @Test(arguments: ["https://api.binance.com/", "ftp://example.test/", "wss:///nohost"])
  func of_refusesAURLThatIsNotAWebSocketsWithATypedError(url: String) throws {
    let result = WebSocketTarget.of(try #require(URL(string: url)))

    #expect(result == .failure(.unreachable("not a ws:// or wss:// URL: \(url)")))
  }
}
