import Foundation

/// stdout for price lines, stderr for everything else; each write goes out at once (unbuffered),
/// so a pipe sees every line as it is printed.
enum Console {
  static func print(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }

  static func warn(_ message: String) {
    FileHandle.standardError.write(Data("btc-price: warning: \(message)\n".utf8))
  }
}
