import BTCPriceNIO
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

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

/// The tests' plain requests to `serve` and to the edges go through the tool's own HTTP client
/// (its streams through ``HTTPStreamReader``): no other client library is built for the tests.
private let client = NIOHTTPClient(transportTimeout: .seconds(10))

/// A GET with headers; the answer's status, headers (names lowercased) and body.
func fetch(_ url: String, headers: [(String, String)] = []) async throws -> (
  status: Int, headers: [String: String], body: String
) {
  let response = try await client.get(
    BTCHTTPRequest(
      url: try #require(URL(string: url)), headers: headers.map { (name: $0.0, value: $0.1) },
      maxBodySize: 1 << 22))
  return (response.status, response.headers, String(decoding: response.body, as: UTF8.self))
}

/// The body of `serve`'s `/api/price` at `address`, asked every 50 ms until `done` holds for it or
/// 10 s have passed (the caller then checks what it got).
func apiPrice(at address: String, until done: (String) -> Bool) async throws -> String {
  var body = ""
  let deadline = ContinuousClock.now + .seconds(10)
  while !done(body), ContinuousClock.now < deadline {
    body = try await fetch("\(address)/api/price").body
    try await Task.sleep(for: .milliseconds(50))
  }
  return body
}
