import Foundation

/// A process's memory, from /proc (Linux only; nil elsewhere).
public enum ProcessMemory {
  /// VmHWM: the most resident memory this process has had so far.
  public static func peakResidentBytes() -> Int? {
    peakResidentBytes(ofStatus: "/proc/self/status")
  }

  /// VmHWM of another process (the built binary an end-to-end test runs); nil once it is gone.
  public static func peakResidentBytes(of processIdentifier: Int32) -> Int? {
    peakResidentBytes(ofStatus: "/proc/\(processIdentifier)/status")
  }

  private static func peakResidentBytes(ofStatus path: String) -> Int? {
    guard let status = try? String(contentsOfFile: path, encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
      let kibibytes = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { return nil }
    return kibibytes * 1024
  }
}
