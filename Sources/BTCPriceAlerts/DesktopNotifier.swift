#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--notify`: the program that shows a desktop notification here, `notify-send` on Linux and
/// `osascript` on macOS, found in `PATH` once at start.
public struct DesktopNotifier: Sendable {
  public let program: String

  public init(program: String) {
    self.program = program
  }

  /// The notifier, or the warning that says what to install.
  public static func find(environment: [String: String]) -> Result<DesktopNotifier, Missing> {
    #if canImport(Darwin)
      let name = "osascript"
      let install = "osascript comes with macOS; check PATH"
    #else
      let name = "notify-send"
      let install =
        "install libnotify-bin (Debian, Ubuntu) or libnotify (Fedora, Arch) for notify-send"
    #endif
    let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    for folder in folders where !folder.isEmpty {
      let path = "\(folder)/\(name)"
      if access(path, X_OK) == 0 { return .success(DesktopNotifier(program: path)) }
    }
    return .failure(Missing(description: "--notify: \(name) not found; \(install)"))
  }

  public struct Missing: Error, CustomStringConvertible {
    public let description: String
  }

  /// The command line that shows `title` and `body`.
  public func arguments(title: String, body: String) -> [String] {
    #if canImport(Darwin)
      func quoted(_ text: String) -> String {
        "\""
          + text.replacingOccurrences(of: "\\", with: "\\\\")
          .replacingOccurrences(of: "\"", with: "\\\"") + "\""
      }
      return [
        program, "-e", "display notification \(quoted(body)) with title \(quoted(title))",
      ]
    #else
      return [program, "--app-name=btc-price", title, body]
    #endif
  }
}
