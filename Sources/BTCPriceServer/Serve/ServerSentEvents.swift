import NIOCore

/// Server-Sent Events framing (the `text/event-stream` format of the HTML standard).
public enum ServerSentEvents {
  /// The `event:` name of every tick: what the page's script listens for. An edge sends the same
  /// name (nchan's `X-EventSource-Event`, see ``EdgeMessage``).
  public static let priceEventName = "price"

  /// One `price` event. `json` is one line, so one `data:` field carries it whole.
  public static func priceFrame(id: Int, json: String) -> String {
    "id: \(id)\nevent: \(priceEventName)\ndata: \(json)\n\n"
  }

  /// A comment line: ignored by `EventSource`, but it keeps idle proxies and load balancers from
  /// closing a quiet stream.
  public static let heartbeatFrame = ": heartbeat\n\n"

  /// Tells the browser how long to wait before reconnecting. Each viewer gets its own value in a
  /// range, so that a restart does not bring every viewer back in the same millisecond.
  public static func retryFrame(milliseconds: Int) -> String {
    "retry: \(milliseconds)\n\n"
  }

  /// The `Last-Event-ID` a reconnecting browser sends, when it is one of ours (a decimal number).
  public static func lastEventID(_ header: String?) -> Int? {
    guard let header, !header.isEmpty, header.count <= 18, header.allSatisfy(\.isASCIIDigit)
    else { return nil }
    return Int(header)
  }

  static let heartbeatBuffer = ByteBuffer(string: heartbeatFrame)
  static let heartbeatChunk = chunk(heartbeatBuffer)

  /// `<size in hex>\r\n<bytes>\r\n`: one chunk of HTTP/1.1's chunked transfer coding.
  static func chunk(_ bytes: ByteBuffer) -> ByteBuffer {
    var chunk = ByteBuffer(string: String(bytes.readableBytes, radix: 16) + "\r\n")
    chunk.writeImmutableBuffer(bytes)
    chunk.writeString("\r\n")
    return chunk
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
