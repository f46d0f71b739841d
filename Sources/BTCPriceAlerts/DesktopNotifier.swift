#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `--notify`: the program that shows a desktop notification here, `notify-send` on Linux and
/// `osascript` on macOS, found in `PATH` once at start.
public struct DesktopNotifier: Sendable {
  /// Which program speaks for this system. Both are compiled and tested everywhere; only
  /// ``here`` differs.
  public enum Kind: Sendable {
    case notifySend
    case osascript

    public static var here: Kind {
      #if canImport(Darwin)
        .osascript
      #else
        .notifySend
      #endif
    }

    var name: String {
      switch self {
      case .notifySend: "notify-send"
      case .osascript: "osascript"
      }
    }

    var install: String {
      switch self {
      case .notifySend:
        "install libnotify-bin (Debian, Ubuntu) or libnotify (Fedora, Arch) for notify-send"
      case .osascript: "osascript comes with macOS; check PATH"
      }
    }
  }

  public let kind: Kind
  public let program: String

  public init(kind: Kind = .here, program: String) {
    self.kind = kind
    self.program = program
  }

  /// The notifier, or the warning that says what to install.
  public static func find(environment: [String: String], kind: Kind = .here) -> Result<
    DesktopNotifier, Missing
  > {
    let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    for folder in folders where !folder.isEmpty {
      let path = "\(folder)/\(kind.name)"
      if FileManager.default.isExecutableFile(atPath: path) {
        return .success(DesktopNotifier(kind: kind, program: path))
      }
    }
    return .failure(Missing(description: "--notify: \(kind.name) not found; \(kind.install)"))
  }

  public struct Missing: Error, CustomStringConvertible {
    public let description: String
  }

  /// The command line that shows `title` and `body`.
  public func arguments(title: String, body: String) -> [String] {
    switch kind {
    case .notifySend:
      return [program, "--app-name=btc-price", title, body]
    case .osascript:
      // AppleScript string literals: a backslash and a double quote are escaped with a backslash.
      func quoted(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
      }
      return [
        program, "-e", "display notification \(quoted(body)) with title \(quoted(title))",
      ]
    }
  }
}
