import BTCPriceTestSupport
import Foundation
import Testing

@testable import BTCPriceCommandLine

/// A run that will make TLS connections reads its certificate authorities when it starts, not at
/// its first connection on the event loop; a run against plain `http`/`ws` (the fakes) reads none.
@Suite("Read the certificate authorities at start-up", .hangLimit(.seconds(30)))
struct ReadTheAuthoritiesAtStartUpUseCaseTests {
  @Test(arguments: [
    (["https://api.binance.com/api/v3/ticker/price"], true),
    (["http://127.0.0.1:8080/price", "wss://stream.binance.com:9443/ws/btcusdt@trade"], true),
    (["HTTPS://api.kraken.com/0/public/Ticker"], true),
    (["http://127.0.0.1:8080/price", "ws://127.0.0.1:8081/ws"], false),
    ([], false),
  ])
  func usesTLS_whenAnyURLIsHTTPSOrWSS(urls: [String], expected: Bool) {
    #expect(NIOPriceRuntime.usesTLS(urls.map { URL(string: $0)! }) == expected)
  }
}
