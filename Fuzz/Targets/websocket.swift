// fuzz-modules: BTCPriceRuntime BTCPriceCore BTCPriceSources BTCPriceNIO
import BTCPriceSources
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded

@testable import BTCPriceNIO

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A price stream's connection as the exchange's bytes reach it: the answer to the upgrade (the
/// `101`) and the frames after it, through the handlers `NIOWebSocketConnector` puts on a
/// connection (`addUpgradeHandlers`: SwiftNIO's upgrade with `UpgradeResponseRecorder`, then
/// SwiftNIO's frame decoder and our `WebSocketFrameReader`), on an embedded channel. The input's
/// first line is `READ`: the bytes arrive READ at a time (0: in one read, the `101` and the first
/// frames together). Each `{accept}` in the rest becomes the `Sec-WebSocket-Accept` that answers
/// the request's random key, so that an input can upgrade.
///
/// Property: where the `101` is plain (``OracleHead``, `Upgrade: websocket`,
/// `Connection: Upgrade`, the right accept, nothing else negotiated) the connection upgrades,
/// and the reader gets, first and in order, every frame the bytes hold up to the first one that
/// is not plain, decoded here by RFC 6455: each unmasked, unfragmented text frame of UTF-8
/// within 64 KiB as exactly its text, each ping as a ping; pongs as nothing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard let (line, input) = splitCase(bytes(data, size)), let numbers = oracleCaseNumbers(line),
    numbers.count == 1
  else { return 0 }
  let run = stream(input, readSize: numbers[0])
  guard let end = oracleEndOfHead(run.sent), let head = OracleHead(run.sent[..<end]),
    isPlainUpgrade(head, accept: run.accept)
  else { return 0 }
  guard run.upgraded else { violated("a plain 101, but the connection did not upgrade") }
  let expected = plainMessages(Array(run.sent[end...]))
  guard run.received.count >= expected.count,
    Array(run.received.prefix(expected.count)) == expected
  else {
    violated("the frames hold \(expected), but the reader got \(run.received)")
  }
  return 0
}

/// Runs the upgrade and the frames over `input`, its `{accept}`s replaced.
func stream(_ input: [UInt8], readSize: Int) -> (
  sent: [UInt8], accept: String, upgraded: Bool, received: [WebSocketInbound]
) {
  let channel = EmbeddedChannel()
  let answer = NIOLockedValueBox<UpgradeResponseRecorder.Answer?>(nil)
  let received = NIOLockedValueBox<[WebSocketInbound]>([])
  let upgraded = NIOLockedValueBox(false)
  var sent: [UInt8] = []
  var accept = ""
  do {
    let upgrade = try NIOWebSocketConnector.addUpgradeHandlers(
      to: channel, tls: nil, serverName: nil, host: "stream.test", hostHeader: "stream.test",
      target: "/ws", maximumFrameSize: PriceStreamEndpoint.maximumMessageSize, readOnTick: false,
      subscriptions: [], answer: answer
    ) { message, _ in
      received.withLockedValue { $0.append(message) }
      return nil
    }
    upgrade.whenSuccess { result in
      if case .websocket = result { upgraded.withLockedValue { $0 = true } }
    }
    try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).wait()
    var request: [UInt8] = []
    while let part = try channel.readOutbound(as: ByteBuffer.self) {
      request += part.readableBytesView
    }
    guard let key = fieldValue("Sec-WebSocket-Key", in: request) else {
      violated("the upgrade request has no Sec-WebSocket-Key")
    }
    accept = acceptValue(for: key)
    sent = replacing(Array("{accept}".utf8), with: Array(accept.utf8), in: input)
    for part in oracleReads(of: sent, size: readSize) {
      guard channel.isActive else { break }
      do {
        try channel.writeInbound(ByteBuffer(bytes: part))
      } catch {
        break
      }
      channel.embeddedEventLoop.run()
    }
  } catch {
    violated("the embedded pipeline failed: \(error)")
  }
  _ = try? channel.finish(acceptAlreadyClosed: true)
  return (sent, accept, upgraded.withLockedValue { $0 }, received.withLockedValue { $0 })
}

/// A `101` that upgrades to WebSocket and negotiates nothing else.
func isPlainUpgrade(_ head: OracleHead, accept: String) -> Bool {
  head.status == 101 && head.minorVersion == 1
    && head.values("upgrade").map { $0.lowercased() } == ["websocket"]
    && head.values("connection").map { $0.lowercased() } == ["upgrade"]
    && head.values("sec-websocket-accept") == [accept]
    && head.values("sec-websocket-extensions").isEmpty
    && head.values("sec-websocket-protocol").isEmpty && head.values("content-length").isEmpty
    && head.values("transfer-encoding").isEmpty
}

/// The messages of the plain frames at the start of `bytes`, by RFC 6455 §5.2: up to the first
/// frame that is cut short or not plain (masked, fragmented, with a reserved bit, its length not
/// written in the fewest bytes, a text over 64 KiB or not UTF-8, a control frame over 125 bytes,
/// any other opcode).
func plainMessages(_ bytes: [UInt8]) -> [WebSocketInbound] {
  var messages: [WebSocketInbound] = []
  var at = 0
  while bytes.count >= at + 2 {
    let (first, second) = (bytes[at], bytes[at + 1])
    guard first & 0xF0 == 0x80, second & 0x80 == 0 else { break }
    var length = Int(second & 0x7F)
    var header = 2
    if length == 126 {
      guard bytes.count >= at + 4 else { break }
      length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
      guard length >= 126 else { break }
      header = 4
    } else if length == 127 {
      guard bytes.count >= at + 10, bytes[at + 2] == 0 else { break }
      length = bytes[(at + 2)..<(at + 10)].reduce(0) { $0 << 8 | Int($1) }
      guard length > 0xFFFF else { break }
      header = 10
    }
    guard length <= PriceStreamEndpoint.maximumMessageSize, bytes.count >= at + header + length
    else { break }
    let payload = bytes[(at + header)..<(at + header + length)]
    switch first & 0x0F {
    case 1:
      guard let text = String(validating: payload, as: UTF8.self) else { return messages }
      messages.append(.text(text))
    case 9:
      guard length <= 125 else { return messages }
      messages.append(.ping)
    case 10:
      guard length <= 125 else { return messages }
    default:
      return messages
    }
    at += header + length
  }
  return messages
}

/// The value of the first field named `name` in an HTTP head.
func fieldValue(_ name: String, in head: [UInt8]) -> String? {
  let text = String(decoding: head, as: UTF8.self)
  for line in text.split(separator: "\r\n")
  where line.lowercased().hasPrefix(name.lowercased() + ":") {
    return String(line.dropFirst(name.count + 1).drop { $0 == " " })
  }
  return nil
}

/// RFC 6455 §4.2.2: base64 of the SHA-1 of the key and the protocol's GUID.
func acceptValue(for key: String) -> String {
  Data(sha1(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
}

func replacing(_ pattern: [UInt8], with replacement: [UInt8], in bytes: [UInt8]) -> [UInt8] {
  var result: [UInt8] = []
  var at = 0
  while at < bytes.count {
    if bytes[at...].starts(with: pattern) {
      result += replacement
      at += pattern.count
    } else {
      result.append(bytes[at])
      at += 1
    }
  }
  return result
}

/// SHA-1 (RFC 3174), for the accept value only.
func sha1(_ message: [UInt8]) -> [UInt8] {
  var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
  var padded = message + [0x80]
  while padded.count % 64 != 56 { padded.append(0) }
  let bits = UInt64(message.count) * 8
  padded += (0..<8).map { UInt8(truncatingIfNeeded: bits >> (56 - 8 * UInt64($0))) }
  for block in stride(from: 0, to: padded.count, by: 64) {
    var w = (0..<16).map { index in
      padded[(block + 4 * index)..<(block + 4 * index + 4)].reduce(UInt32(0)) {
        $0 << 8 | UInt32($1)
      }
    }
    for index in 16..<80 {
      let x = w[index - 3] ^ w[index - 8] ^ w[index - 14] ^ w[index - 16]
      w.append(x << 1 | x >> 31)
    }
    var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
    for index in 0..<80 {
      let (f, k): (UInt32, UInt32) =
        switch index {
        case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
        case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
        case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
        default: (b ^ c ^ d, 0xCA62_C1D6)
        }
      let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[index]
      (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, temp)
    }
    h = [h[0] &+ a, h[1] &+ b, h[2] &+ c, h[3] &+ d, h[4] &+ e]
  }
  return h.flatMap { word in
    (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32($0))) }
  }
}
