#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// stdout for price lines, stderr for everything else; each write goes out at once (unbuffered),
/// so a pipe sees every line as it is printed.
///
/// Straight `write(2)` calls: this runs every tick, and `FileHandle` costs an extra copy into
/// `Data` and an Objective-C-style object per write.
enum Console {
  /// Raw bytes to stdout: price lines, and the live panel's escape sequences.
  static func write(_ text: String) {
    write(text, to: STDOUT_FILENO)
  }

  static func note(_ message: String) {
    write("btc-price: note: \(message)\n", to: STDERR_FILENO)
  }

  static func warn(_ message: String) {
    write("btc-price: warning: \(message)\n", to: STDERR_FILENO)
  }

  /// Whether stdout is a terminal.
  static var stdoutIsTerminal: Bool {
    isatty(STDOUT_FILENO) == 1
  }

  /// The terminal's width in columns, or `$COLUMNS`, or 80.
  static func terminalWidth() -> Int {
    var size = winsize()
    if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
      return Int(size.ws_col)
    }
    return getenv("COLUMNS").flatMap { Int(String(cString: $0)) } ?? 80
  }

  /// Writes every byte, retrying short and interrupted writes. A closed or failing stream drops
  /// the rest of the text: there is nowhere left to report it.
  private static func write(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        #if canImport(Glibc)
          let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        #else
          let written = Darwin.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        #endif
        if written < 0 {
          if errno == EINTR { continue }
          return
        }
        offset += written
      }
    }
  }
}
