import BTCPriceCommandLine
import BTCPriceTerminal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// stdout for price lines, stderr for everything else, each through a ``TerminalWriter`` that
/// writes on a thread of its own (one for both when they are the same file, so their lines keep
/// their order). Each line goes out as soon as the reader takes it (unbuffered), so a pipe sees
/// every line as it is printed.
enum Console {
  private static let writers = {
    // stdout's lines are written at once where a pipe takes them (`TerminalWriter
    // .withoutWaiting`), on whichever thread hands them over: a reader gone must be EPIPE there,
    // not a signal that ends the process before the run's own way out (SwiftNIO ignores SIGPIPE
    // from its first socket too). Set here, where the writers start, so that what
    // ArgumentParser prints (`--help | true`) still ends with SIGPIPE's 141, as before.
    signal(SIGPIPE, SIG_IGN)
    return TerminalWriter.standardStreams()
  }()

  /// Where the front ends write.
  static let output = CommandLineOutput(
    stdout: writers.stdout, stderr: writers.stderr, width: terminalWidth, height: terminalRows)

  /// Puts `text` on stdout and waits until it is written, or says why it cannot be: the reader
  /// is gone (EPIPE), or another error (`No space left on device`). For a one-shot report off any
  /// event loop (`doctor`).
  static func writeStdout(_ text: String) throws(TerminalOutputError) {
    try writers.stdout.write(text, to: .stdout, as: .whole)
    writers.stdout.waitUntilWritten()
    if let failure = writers.stdout.failure { throw failure }
  }

  /// Puts a line on stderr, best effort (there is nowhere left to report a failure), and waits
  /// until it is written: for the command's own words before and after a run.
  static func writeStderr(_ text: String) {
    try? writers.stderr.write(text, to: .stderr, as: .diagnostic)
    writers.stderr.waitUntilWritten()
  }

  static func note(_ message: String) {
    writeStderr("btc-price: note: \(message)\n")
  }

  static func warning(_ message: String) -> String {
    WarningLine.format(message)
  }

  static func error(_ message: String) {
    writeStderr("btc-price: error: \(message)\n")
  }

  /// Whether stdout is a terminal.
  static var stdoutIsTerminal: Bool {
    isatty(STDOUT_FILENO) == 1
  }

  /// The terminal's width in columns, or `$COLUMNS`, or 80.
  static func terminalWidth() -> Int {
    terminalColumns() ?? 80
  }

  /// The terminal's columns (`ioctl`), else `$COLUMNS`; nil when neither says.
  static func terminalColumns() -> Int? {
    var size = winsize()
    if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
      return Int(size.ws_col)
    }
    return getenv("COLUMNS").flatMap { Int(String(cString: $0)) }
  }

  /// The terminal's rows (`ioctl`), else `$LINES`; nil when neither says.
  static func terminalRows() -> Int? {
    var size = winsize()
    if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 {
      return Int(size.ws_row)
    }
    return getenv("LINES").flatMap { Int(String(cString: $0)) }
  }
}
