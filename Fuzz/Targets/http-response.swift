// fuzz-modules: BTCPriceRuntime BTCPriceCore BTCPriceSources BTCPriceNIO
import BTCPriceSources
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import NIOHTTP1

@testable import BTCPriceNIO

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The HTTP client's reading of an answer: the bytes a server sends, through the pipeline
/// `NIOHTTPClient` builds for a connection (SwiftNIO's `HTTPResponseDecoder`, then our
/// `ResponseHandler`), for one GET; then the server hangs up. The input's first line is
/// `READ LIMIT`: the bytes arrive READ at a time (0: in one read), and the request's body cap
/// is LIMIT bytes.
///
/// Properties: an answer that comes out has the status its status line says and a body of at
/// most LIMIT bytes, made only of the input's bytes in their order; and where the head is plain
/// enough to read here (``OracleHead``) and frames its body by `Content-Length`, chunks or the
/// end of the connection, the answer comes out exactly when that body is whole and within LIMIT,
/// with exactly that body.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard let (line, input) = splitCase(bytes(data, size)), let numbers = oracleCaseNumbers(line),
    numbers.count == 2
  else { return 0 }
  let (readSize, limit) = (numbers[0], numbers[1])
  let outcome = answer(to: input, readSize: readSize, limit: limit)
  let expected = framedBody(input)

  if case .success(let response) = outcome {
    guard response.body.count <= limit else {
      violated("a body of \(response.body.count) bytes over the limit of \(limit)")
    }
    guard isSubsequence(Array(response.body), of: input.drop { $0 != 10 }) else {
      violated("a body with bytes the answer's body does not hold, or out of order")
    }
    if let status = expected.head?.status {
      guard status == response.status else {
        violated("status \(response.status), but the status line says \(status)")
      }
    } else {
      // SwiftNIO's parser skips empty lines before the status line, as RFC 9112 §2.2 allows.
      let firstLine = String(
        decoding: input.drop { $0 == 13 || $0 == 10 }.prefix { $0 != 10 }, as: UTF8.self)
      guard firstLine.contains(String(response.status)) else {
        violated("status \(response.status), which the status line does not hold")
      }
    }
  }
  switch expected.body {
  case .whole(let body) where body.count <= limit:
    guard case .success(let response) = outcome else {
      violated("a whole answer of \(body.count) bytes within \(limit) failed: \(outcome)")
    }
    guard Array(response.body) == body else {
      violated("body \(Array(response.body)), but the answer frames \(body)")
    }
  case .whole(let body):
    if case .success = outcome {
      violated("an answer of \(body.count) bytes passed the limit of \(limit)")
    }
  case .cut:
    if case .success = outcome { violated("an answer came out of a body cut short") }
  case .unknown:
    break
  }
  return 0
}

/// What the client made of `input`: the answer, or why it failed.
func answer(to input: [UInt8], readSize: Int, limit: Int) -> Result<BTCHTTPResponse, any Error> {
  let channel = EmbeddedChannel()
  let outcome = NIOLockedValueBox<Result<BTCHTTPResponse, any Error>?>(nil)
  do {
    let handler = try NIOHTTPClient.addHandlers(
      to: channel, tls: nil, serverName: nil, host: "exchange.test")
    try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).wait()
    let exchange = Exchange(loop: channel.eventLoop, maxBodySize: limit)
    exchange.promise.futureResult.whenComplete { result in outcome.withLockedValue { $0 = result } }
    _ = exchange.attach(channel)
    handler.start(
      exchange, head: HTTPRequestHead(version: .http1_1, method: .GET, uri: "/api"), body: nil,
      reused: false
    ) { _ in }
    for part in oracleReads(of: input, size: readSize) {
      guard channel.isActive, outcome.withLockedValue({ $0 == nil }) else { break }
      try channel.writeInbound(ByteBuffer(bytes: part))
    }
  } catch {
    violated("the embedded pipeline failed: \(error)")
  }
  // The server hangs up: the end of a body that runs to the end of the connection.
  _ = try? channel.finish(acceptAlreadyClosed: true)
  guard let result = outcome.withLockedValue({ $0 }) else {
    violated("the request never completed")
  }
  return result
}

/// The body the bytes frame, read here by RFC 9112 §6.3.
enum FramedBody {
  case whole([UInt8])
  /// The framing says more is to come than the bytes hold.
  case cut
  /// The head or the chunks are not plain enough to say.
  case unknown
}

func framedBody(_ input: [UInt8]) -> (head: OracleHead?, body: FramedBody) {
  guard let end = oracleEndOfHead(input), let head = OracleHead(input[..<end]) else {
    return (nil, .unknown)
  }
  let rest = Array(input[end...])
  let encodings = head.values("transfer-encoding")
  let lengths = head.values("content-length")
  // 1xx answers come before the real one; an upgrade's bytes are another protocol's.
  if head.status < 200 || !head.values("upgrade").isEmpty { return (head, .unknown) }
  if head.status == 204 || head.status == 304 { return (head, .whole([])) }
  if !encodings.isEmpty {
    guard encodings.count == 1, encodings[0].lowercased() == "chunked", lengths.isEmpty,
      head.minorVersion == 1
    else { return (head, .unknown) }
    return (head, chunked(rest))
  }
  if !lengths.isEmpty {
    guard lengths.count == 1, (1...9).contains(lengths[0].utf8.count),
      lengths[0].utf8.allSatisfy({ (48...57).contains($0) }), let length = Int(lengths[0])
    else { return (head, .unknown) }
    return (head, rest.count >= length ? .whole(Array(rest.prefix(length))) : .cut)
  }
  return (head, .whole(rest))
}

/// A chunked body with no chunk extensions and no trailer fields.
func chunked(_ bytes: [UInt8]) -> FramedBody {
  var body: [UInt8] = []
  var at = 0
  while true {
    var size = 0
    var digits = 0
    while at < bytes.count, let digit = hexValue(bytes[at]) {
      size = size * 16 + digit
      digits += 1
      at += 1
      if digits > 7 { return .unknown }
    }
    guard at + 2 <= bytes.count else { return .cut }
    guard digits > 0, bytes[at] == 13, bytes[at + 1] == 10 else { return .unknown }
    at += 2
    if size == 0 {
      guard at + 2 <= bytes.count else { return .cut }
      return bytes[at] == 13 && bytes[at + 1] == 10 ? .whole(body) : .unknown
    }
    guard at + size + 2 <= bytes.count else { return .cut }
    body += bytes[at..<(at + size)]
    at += size
    guard bytes[at] == 13, bytes[at + 1] == 10 else { return .unknown }
    at += 2
  }
}

func hexValue(_ byte: UInt8) -> Int? {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
  case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
  case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
  default: nil
  }
}

func isSubsequence(_ part: [UInt8], of whole: some Collection<UInt8>) -> Bool {
  var index = part.startIndex
  for byte in whole where index < part.endIndex && part[index] == byte {
    index += 1
  }
  return index == part.endIndex
}
