import Foundation

/// stdout for price lines, stderr for everything else; each write goes out at once (unbuffered),
/// so a pipe sees every line as it is printed.
enum Console {
  static func print(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }

  /// Raw bytes to stdout, for the live panel's escape sequences.
  static func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }

  static func note(_ message: String) {
    FileHandle.standardError.write(Data("btc-price: note: \(message)\n".utf8))
  }

  static func warn(_ message: String) {
    FileHandle.standardError.write(Data("btc-price: warning: \(message)\n".utf8))
  }
}
