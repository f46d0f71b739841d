import BTCPriceTerminal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A `--verbose` line: `2026-11-22T14:33:22+0000 info btc-price: [btc_price] binance delivered …`,
/// local time, in the shape swift-log's stream handler prints.
enum VerboseLine {
  static func format(_ level: SourceReport.Level, _ message: String) -> String {
    "\(timestamp()) \(level) btc-price: [btc_price] \(message)\n"
  }

  private static func timestamp() -> String {
    var now = time(nil)
    var local = tm()
    localtime_r(&now, &local)
    var buffer = [CChar](repeating: 0, count: 32)
    let length = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &local)
    return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
