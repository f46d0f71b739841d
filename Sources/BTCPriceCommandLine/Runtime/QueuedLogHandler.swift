import Logging

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `serve`'s server logs (Hummingbird's, swift-service-lifecycle's): swift-log's
/// `StreamLogHandler` lines, handed to stderr's ``TerminalWriter`` instead of written on the
/// calling thread. Hummingbird logs on its event loops (a refused connection, with `--verbose`),
/// and `StreamLogHandler` writes and flushes stderr there under a lock of its own: a stderr that
/// nobody reads would stop the server's loops, and every thread that logs after them
/// (ENGINEERING rule 11).
struct QueuedLogHandler: LogHandler {
  private let label: String
  private let write: @Sendable (String) -> Void
  var logLevel: Logger.Level = .info
  var metadata: Logger.Metadata = [:]
  var metadataProvider: Logger.MetadataProvider?

  /// - Parameter write: queues a line for stderr and returns at once
  ///   (``CommandLineOutput/writeDiagnostic(_:)``).
  init(label: String, write: @escaping @Sendable (String) -> Void) {
    self.label = label
    self.write = write
  }

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    write(line(event, at: time(nil)))
  }

  /// `2026-11-25T16:52:10+0000 info btc-price: key=value [HummingbirdCore] Server started…`, as
  /// `StreamLogHandler` writes it: the local time to the second, the level, the label, the
  /// metadata sorted by key (the error's, when one is logged), the source, the message.
  func line(_ event: LogEvent, at seconds: time_t) -> String {
    var merged = metadata
    merged.merge(metadataProvider?.get() ?? [:]) { _, provided in provided }
    merged.merge(event.metadata ?? [:]) { _, explicit in explicit }
    if let error = event.error {
      merged["error.message"] = "\(error)"
      merged["error.type"] = "\(String(reflecting: type(of: error)))"
    }
    let pretty = merged.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
    return "\(Self.timestamp(seconds)) \(event.level) \(label):\(pretty) [\(event.source)] "
      + "\(event.message)\n"
  }

  private static func timestamp(_ seconds: time_t) -> String {
    var seconds = seconds
    var local = tm()
    guard localtime_r(&seconds, &local) != nil else { return "<unknown>" }
    var buffer = [CChar](repeating: 0, count: 64)
    let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &local)
    return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
