import BTCPriceTerminal

/// Where a front end's bytes go: the command's stdout and stderr.
public struct CommandLineOutput: Sendable {
  /// Puts bytes on stdout, all of them, or says why it cannot.
  let write: @Sendable (String) throws(TerminalOutputError) -> Void
  /// Puts a line on stderr, best effort.
  let writeDiagnostic: @Sendable (String) -> Void
  /// The terminal's width in columns now.
  let width: @Sendable () -> Int

  public init(
    write: @escaping @Sendable (String) throws(TerminalOutputError) -> Void,
    writeDiagnostic: @escaping @Sendable (String) -> Void,
    width: @escaping @Sendable () -> Int = { 80 }
  ) {
    self.write = write
    self.writeDiagnostic = writeDiagnostic
    self.width = width
  }

  /// A warning on stderr (``WarningLine``).
  func warn(_ message: String) {
    writeDiagnostic(WarningLine.format(message))
  }
}
