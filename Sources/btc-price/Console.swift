import BTCPriceCommandLine
import BTCPriceTerminal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// stdout for price lines, stderr for everything else; each write goes out at once (unbuffered),
/// so a pipe sees every line as it is printed.
///
/// Straight `write(2)` calls: this runs every tick, and `FileHandle` costs an extra copy into
/// `Data` and an Objective-C-style object per write.
enum Console {
  /// Puts every byte on stdout, or says why it cannot: the reader is gone (EPIPE), or another
  /// error (`No space left on device`).
  static func writeStdout(_ text: String) throws(TerminalOutputError) {
    guard let error = put(text, to: STDOUT_FILENO) else { return }
    if error == EPIPE { throw .readerGone }
    throw .failed(String(cString: strerror(error)))
  }

  /// Puts a line on stderr, best effort: there is nowhere left to report a failure.
  static func writeStderr(_ text: String) {
    _ = put(text, to: STDERR_FILENO)
  }

  static func note(_ message: String) {
    writeStderr("btc-price: note: \(message)\n")
  }

  static func warning(_ message: String) -> String {
    WarningLine.format(message)
  }

  /// Where the front ends write.
  static let output = CommandLineOutput(
    write: writeStdout, writeDiagnostic: writeStderr, width: terminalWidth)

  static func error(_ message: String) {
    writeStderr("btc-price: error: \(message)\n")
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

  /// Writes every byte, retrying short and interrupted writes; returns the `errno` of a failed
  /// write, or nil.
  private static func put(_ text: String, to descriptor: Int32) -> Int32? {
    var text = text
    return text.withUTF8 { bytes -> Int32? in
      var offset = 0
      while offset < bytes.count {
        let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return errno
        }
        offset += written
      }
      return nil
    }
  }
}
