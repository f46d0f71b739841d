import BTCPriceTerminal

/// Where a front end's bytes go: the command's stdout and stderr, each through a
/// ``TerminalWriter`` that writes on a thread of its own, so that the event loop that reads the
/// price streams hands its lines over and never waits for a reader (a paused pager, Ctrl-S, a
/// full pipe).
public struct CommandLineOutput: Sendable {
  let stdout: TerminalWriter
  let stderr: TerminalWriter
  /// The terminal's width in columns now.
  let width: @Sendable () -> Int
  /// The terminal's height in rows now; nil when not known.
  let height: @Sendable () -> Int?

  /// - Parameters:
  ///   - stdout: writes stdout (``TerminalWriter/standardStreams(stdout:stderr:)``).
  ///   - stderr: writes stderr; the same writer as `stdout` when they are the same file.
  public init(
    stdout: TerminalWriter, stderr: TerminalWriter, width: @escaping @Sendable () -> Int = { 80 },
    height: @escaping @Sendable () -> Int? = { nil }
  ) {
    self.stdout = stdout
    self.stderr = stderr
    self.width = width
    self.height = height
  }

  /// Queues bytes for stdout; `kind` says how they wait while the reader is away.
  ///
  /// - Throws: why stdout can take no more, found by an earlier write.
  func write(_ text: String, as kind: OutputQueue.Kind = .whole) throws(TerminalOutputError) {
    try stdout.write(text, to: .stdout, as: kind)
  }

  /// Queues a line for stderr, best effort.
  func writeDiagnostic(_ text: String) {
    try? stderr.write(text, to: .stderr, as: .diagnostic)
  }

  /// A warning on stderr (``WarningLine``).
  func warn(_ message: String) {
    writeDiagnostic(WarningLine.format(message))
  }

  /// Returns once everything queued is written, or stdout failed, however long that takes: a
  /// run that ended on its own waits for its reader, as `cat` does.
  public func finish() async {
    await stdout.finish()
    await stderr.finish()
  }

  /// Writes what is queued before a run ends: all of it, however long the reader takes, when
  /// the run ended on its own (as `cat` waits); at most 100 ms after a signal, which means now.
  func finish(afterSignal signal: Int32?) async {
    guard signal == nil else {
      waitUntilWritten(atMost: .milliseconds(100))
      return
    }
    await finish()
  }

  /// Waits at most `bound` for everything queued to be written: the ways out that cannot wait
  /// for a reader (a signal, Ctrl-Z). It blocks the calling thread, never an event loop.
  public func waitUntilWritten(atMost bound: Duration) {
    let start = ContinuousClock.now
    stdout.waitUntilWritten(atMost: bound)
    stderr.waitUntilWritten(atMost: max(bound - (ContinuousClock.now - start), .zero))
  }
}
