// fuzz-modules: BTCPriceRuntime BTCPriceCore BTCPriceSources BTCPriceNIO
import BTCPriceSources
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded

@testable import BTCPriceNIO

/// An HTTP proxy's answer to our CONNECT (`HTTPConnectTunnelHandler`), and what it sends after,
/// on an embedded channel. Whoever opened the tunnel adds its handlers once the tunnel's future
/// succeeds (`ProxyTunnel.open`'s callers do); here that is a recorder. The input's first line
/// is `READ`: the bytes arrive READ at a time (0: in one read).
///
/// Properties: the tunnel is reported open only when the answer's status line (its bytes up to
/// the first CR or LF) is an HTTP/1.x 2xx one, words apart however many spaces part them; it is
/// reported open whenever the status line is a plain `HTTP/1.x 2xx` one (a reason phrase or not)
/// and the head ends within 16 KiB; and once open, every byte after the head reaches what
/// follows, unchanged and in order.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard let (line, input) = splitCase(bytes(data, size)), let numbers = oracleCaseNumbers(line),
    numbers.count == 1
  else { return 0 }
  let (opened, after) = tunnel(input, readSize: numbers[0])
  let end = oracleEndOfHead(input)
  let statusLine = input.prefix { $0 != 13 && $0 != 10 }
  if opened {
    guard let end, saysSuccess(statusLine, strictly: false) else {
      violated("the tunnel was opened on an answer whose status line is no 2xx one")
    }
    guard after == Array(input[end...]) else {
      violated(
        "after the head the proxy sent \(Array(input[end...])), but what follows got \(after)")
    }
  } else if let end, end <= 16 * 1024, saysSuccess(statusLine, strictly: true) {
    violated("a 2xx answer, but the tunnel was not opened")
  }
  return 0
}

/// Whether `line` is a 2xx status line: strictly, `HTTP/1.x 2xx` then nothing or a space and a
/// reason of visible characters and spaces; loosely, words parted by any number of spaces, the
/// first starting `HTTP/1.`, the second three digits starting with 2.
func saysSuccess(_ line: ArraySlice<UInt8>, strictly: Bool) -> Bool {
  let line = Array(line)
  if strictly {
    return line.count >= 12 && Array(line[0..<7]) == Array("HTTP/1.".utf8)
      && (48...57).contains(line[7]) && line[8] == 32 && line[9] == UInt8(ascii: "2")
      && line[10..<12].allSatisfy { (48...57).contains($0) }
      && (line.count == 12
        || (line[12] == 32 && line[13...].allSatisfy { (32...126).contains($0) }))
  }
  let words = line.split(separator: 32)
  return words.count >= 2 && words[0].starts(with: "HTTP/1.".utf8) && words[1].count == 3
    && words[1].first == UInt8(ascii: "2") && words[1].allSatisfy { (48...57).contains($0) }
}

/// Runs the CONNECT over `input`; whether the tunnel opened, and the bytes what follows got.
func tunnel(_ input: [UInt8], readSize: Int) -> (Bool, [UInt8]) {
  let channel = EmbeddedChannel()
  let promise = channel.eventLoop.makePromise(of: Void.self)
  let opened = NIOLockedValueBox(false)
  let recorder = ByteRecorder()
  promise.futureResult.assumeIsolated().whenSuccess {
    opened.withLockedValue { $0 = true }
    do {
      try channel.pipeline.syncOperations.addHandler(recorder)
    } catch {
      violated("what follows could not be added: \(error)")
    }
  }
  do {
    let proxy = try ProxyEndpoint(parsing: "http://alice:s3cret@proxy:3128")
    try channel.pipeline.syncOperations.addHandler(
      HTTPConnectTunnelHandler(host: "exchange.test", port: 443, proxy: proxy, promise: promise))
    try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 3128)).wait()
    try writeInbound(input, readSize: readSize, to: channel)
  } catch {
    violated("the embedded pipeline failed: \(error)")
  }
  _ = try? channel.finish(acceptAlreadyClosed: true)
  return (opened.withLockedValue { $0 }, recorder.received)
}
