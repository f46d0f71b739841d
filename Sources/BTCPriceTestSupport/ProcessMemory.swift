import Foundation

/// The process's own memory, from /proc (Linux only; nil elsewhere).
enum ProcessMemory {
  /// VmHWM: the most resident memory the process has had so far.
  static func peakResidentBytes() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
      let kibibytes = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { return nil }
    return kibibytes * 1024
  }
}
