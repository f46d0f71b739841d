// fuzz-modules: BTCPriceRuntime BTCPriceCore BTCPriceSources BTCPriceNIO
import BTCPriceSources
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded

@testable import BTCPriceNIO

/// A SOCKS5 proxy's side of the handshake: the bytes it answers `SOCKS5ClientHandshake` with
/// (method choice, RFC 1929's verdict when we send a user name and password, the CONNECT reply),
/// and what it sends after, on an embedded channel. Whoever opened the tunnel adds its handlers
/// once the handshake's future succeeds (`ProxyTunnel.open`'s callers do); here that is a
/// recorder. The input's first line is `READ AUTH`: the bytes arrive READ at a time (0: in one
/// read), and AUTH 1 puts a user name and password in the proxy URL.
///
/// Properties: the tunnel is reported open exactly when the proxy's bytes say so, read here by
/// RFC 1928 (a method we offered; the password accepted; a CONNECT reply with VER 5, REP 0 and a
/// whole BND address of a defined type); and once open, every byte after the reply reaches what
/// follows, unchanged and in order.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard let (line, input) = splitCase(bytes(data, size)), let numbers = oracleCaseNumbers(line),
    numbers.count == 2, numbers[1] <= 1
  else { return 0 }
  let (readSize, withPassword) = (numbers[0], numbers[1] == 1)
  let expected = socksOutcome(input, withPassword: withPassword)
  let (opened, after) = handshake(input, readSize: readSize, withPassword: withPassword)
  switch expected {
  case .open(let rest):
    guard opened else { violated("a successful reply, but the tunnel was not opened") }
    guard after == rest else {
      violated("after the reply the proxy sent \(rest), but what follows got \(after)")
    }
  case .notOpen:
    if opened { violated("the tunnel was opened on a reply that is no success") }
  }
  return 0
}

enum SOCKSOutcome {
  case open(after: [UInt8])
  case notOpen
}

/// The proxy's bytes read by RFC 1928 and RFC 1929.
func socksOutcome(_ bytes: [UInt8], withPassword: Bool) -> SOCKSOutcome {
  guard bytes.count >= 2, bytes[0] == 5 else { return .notOpen }
  var at = 2
  switch bytes[1] {
  case 0:
    break
  case 2 where withPassword:
    // RFC 1929's answer: its version, then 0 for success (the version is not checked).
    guard bytes.count >= at + 2, bytes[at + 1] == 0 else { return .notOpen }
    at += 2
  default:
    return .notOpen
  }
  // VER REP RSV ATYP BND.ADDR BND.PORT
  guard bytes.count >= at + 5, bytes[at] == 5, bytes[at + 1] == 0 else { return .notOpen }
  let address: Int
  switch bytes[at + 3] {
  case 1: address = 4
  case 3: address = 1 + Int(bytes[at + 4])
  case 4: address = 16
  default: return .notOpen
  }
  let end = at + 4 + address + 2
  guard bytes.count >= end else { return .notOpen }
  return .open(after: Array(bytes[end...]))
}

/// Runs the handshake over `input`; whether the tunnel opened, and the bytes what follows got.
func handshake(_ input: [UInt8], readSize: Int, withPassword: Bool) -> (Bool, [UInt8]) {
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
    let proxy = try ProxyEndpoint(
      parsing: withPassword ? "socks5h://alice:s3cret@proxy:1080" : "socks5h://proxy:1080")
    try channel.pipeline.syncOperations.addHandler(
      SOCKS5ClientHandshake(
        target: .domain("exchange.test", port: 443), proxy: proxy, promise: promise))
    try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1080)).wait()
    try writeInbound(input, readSize: readSize, to: channel)
  } catch {
    violated("the embedded pipeline failed: \(error)")
  }
  _ = try? channel.finish(acceptAlreadyClosed: true)
  return (opened.withLockedValue { $0 }, recorder.received)
}
