/// Which lines ran, read from `llvm-cov export -format=lcov`.
public struct LineCoverage: Sendable {
  /// Per file (absolute path as llvm-cov prints it): lines that ran, and lines that have code.
  public var ran: [String: Set<Int>] = [:]
  public var instrumented: [String: Set<Int>] = [:]

  public init() {}

  public init(lcov: String) {
    var file: String?
    for line in lcov.split(separator: "\n") {
      if line.hasPrefix("SF:") {
        file = String(line.dropFirst(3))
      } else if line.hasPrefix("DA:"), let file {
        let fields = line.dropFirst(3).split(separator: ",")
        guard fields.count >= 2, let number = Int(fields[0]), let count = Int(fields[1]) else {
          continue
        }
        instrumented[file, default: []].insert(number)
        if count > 0 { ran[file, default: []].insert(number) }
      }
    }
  }
}

/// FNV-1a, 64 bits: a cache key, not a defence.
public struct FNV1a: Sendable {
  public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

  public init() {}

  public mutating func add(_ text: String) {
    for byte in text.utf8 {
      value ^= UInt64(byte)
      value = value &* 0x100_0000_01b3
    }
    // A separator, so that "ab" + "c" and "a" + "bc" differ.
    value ^= 0xff
    value = value &* 0x100_0000_01b3
  }

  public var hex: String { String(value, radix: 16) }
}
