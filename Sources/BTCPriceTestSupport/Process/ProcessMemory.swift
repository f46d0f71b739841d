import Foundation

/// A process's peak memory: on Linux `VmHWM` from /proc (the most resident memory it has had);
/// on macOS, which has no /proc, the kernel's lifetime peak of its physical footprint
/// (`proc_pid_rusage` with `RUSAGE_INFO_V4`, `ri_lifetime_max_phys_footprint`: <libproc.h> and
/// <sys/resource.h>, docs/ARCHITECTURE.md "Platforms"). Nil where neither exists, or once the
/// process is gone.
public enum ProcessMemory {
  /// This process's peak.
  public static func peakResidentBytes() -> Int? {
    #if os(Linux)
      peakResidentBytes(ofStatus: "/proc/self/status")
    #else
      peakResidentBytes(of: getpid())
    #endif
  }

  /// Another process's peak (the built binary an end-to-end test runs).
  public static func peakResidentBytes(of processIdentifier: Int32) -> Int? {
    #if os(Linux)
      peakResidentBytes(ofStatus: "/proc/\(processIdentifier)/status")
    #elseif canImport(Darwin)
      var info = rusage_info_v4()
      let result = withUnsafeMutablePointer(to: &info) { pointer in
        pointer.withMemoryRebound(to: rusage_info_t?.self, capacity: 1) {
          proc_pid_rusage(processIdentifier, RUSAGE_INFO_V4, $0)
        }
      }
      return result == 0 ? Int(info.ri_lifetime_max_phys_footprint) : nil
    #else
      nil
    #endif
  }

  /// Another process's resident memory now (`VmRSS`, from /proc): nil where there is no /proc
  /// (macOS), or once the process is gone.
  public static func residentBytes(of processIdentifier: Int32) -> Int? {
    bytes("VmRSS:", ofStatus: "/proc/\(processIdentifier)/status")
  }

  #if os(Linux)
    private static func peakResidentBytes(ofStatus path: String) -> Int? {
      bytes("VmHWM:", ofStatus: path)
    }
  #endif

  /// A field of a /proc status file, in bytes.
  private static func bytes(_ field: String, ofStatus path: String) -> Int? {
    guard let status = try? String(contentsOfFile: path, encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
      let kibibytes = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { return nil }
    return kibibytes * 1024
  }
}
