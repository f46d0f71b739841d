#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The process's environment variables by name: what the commands read their settings, proxies
/// and paths from.
public enum ProcessEnvironment {
  /// Every variable of the process, each `NAME=value` split at its first `=`; an entry without
  /// one, or with an empty name, is left out. A name set twice keeps its first value, the one
  /// `getenv(3)` and the tool's child processes see.
  ///
  /// On Linux read from `environ` by bytes: `ProcessInfo`'s `environment` looks for each `=`
  /// character by character, through grapheme breaking (a long `LS_COLORS` included), at every
  /// one-shot's start (docs/PERFORMANCE.md, "The one-shot"). Elsewhere, `ProcessInfo`'s.
  public static func current() -> [String: String] {
    #if os(Linux)
      var variables: [String: String] = [:]
      var next = environ
      while let entry = next.pointee {
        variables.add(UnsafeRawBufferPointer(start: entry, count: strlen(entry)))
        next += 1
      }
      return variables
    #else
      return ProcessInfo.processInfo.environment
    #endif
  }

  /// The variables of `entries` (each `NAME=value`), read as ``current()`` reads the process's.
  static func read(_ entries: [String]) -> [String: String] {
    var variables: [String: String] = [:]
    for entry in entries {
      var entry = entry
      entry.withUTF8 { variables.add(UnsafeRawBufferPointer($0)) }
    }
    return variables
  }
}

extension [String: String] {
  fileprivate mutating func add(_ entry: UnsafeRawBufferPointer) {
    guard let equals = entry.firstIndex(of: UInt8(ascii: "=")), equals > 0 else { return }
    let name = String(decoding: entry[..<equals], as: UTF8.self)
    guard self[name] == nil else { return }
    self[name] = String(decoding: entry[(equals + 1)...], as: UTF8.self)
  }
}
