import AsyncHTTPClient
import BTCPriceTestSupport
import Foundation
import NIOCore

extension BinaryProcess {
  /// `serve`'s address, read from its first line (`… http://127.0.0.1:PORT …`); nil until it has
  /// said it.
  var serveAddress: String? {
    guard let line = stdoutText.first,
      let match = line.firstMatch(of: #/http://127\.0\.0\.1:(\d+)/#)
    else { return nil }
    return "http://127.0.0.1:\(match.1)"
  }
}

/// The body of `serve`'s `/api/price` at `address`, asked every 50 ms until `done` holds for it or
/// 10 s have passed (the caller then checks what it got).
func apiPrice(at address: String, until done: (String) -> Bool) async throws -> String {
  var body = ""
  let deadline = ContinuousClock.now + .seconds(10)
  while !done(body), ContinuousClock.now < deadline {
    let response = try await HTTPClient.shared.execute(
      HTTPClientRequest(url: "\(address)/api/price"), timeout: .seconds(10))
    body = String(buffer: try await response.body.collect(upTo: 1 << 20))
    try await Task.sleep(for: .milliseconds(50))
  }
  return body
}
