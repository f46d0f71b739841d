import BTCPriceSources
import BTCPriceTestSupport
import Foundation

/// The tests' fake exchange (``FakeExchangeServer``) as a program of its own, for the checks
/// that run a built `btc-price` outside `swift test`: scripts/check-packages points the installed
/// package, the release tarball's binary and the container image at it with `--binance-url`.
///
/// `fake-exchange [PRICE]` listens on 127.0.0.1 (a free port), answers Binance's ticker with
/// PRICE (default 68901.23) for ever, prints `binance-url <url>` on stdout and a line `ready`,
/// and runs until it is killed.
@main
enum FakeExchange {
  static func main() async throws {
    let price = CommandLine.arguments.dropFirst().first ?? "68901.23"
    let server = try await FakeExchangeServer.start()
    await server.stub(.binance, .binance(price: price))
    // Unbuffered: the script that started it reads these lines while it runs.
    FileHandle.standardOutput.write(
      Data("binance-url \(server.url(for: .binance).absoluteString)\nready\n".utf8))
    while true {
      try await Task.sleep(for: .seconds(3600))
    }
  }
}
