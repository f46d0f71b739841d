import BTCPriceCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes stdout and stderr on a thread of its own, so that nothing that hands it a line ever
/// waits for a reader. The event loop that reads the price streams and answers their pings
/// queues its lines here and goes on: a paused pager, Ctrl-S or a full pipe used to stop the
/// pongs, and an exchange then closed the connection (ENGINEERING rule 11).
///
/// What waits, and what is left out when too much does, is ``OutputQueue``'s. A failed write of
/// stdout (its reader gone, a full disk) ends the writing: what waits is dropped, every later
/// write to stdout throws the failure, and ``whenFailed(_:)`` is told at once, so a run ends
/// without waiting for its next tick. A failed write of stderr is ignored: there is nowhere left
/// to say so.
public final class TerminalWriter: Sendable {
  /// Puts every byte of a chunk on its stream; returns the `errno` of a failed write, or nil.
  /// It may block for as long as the reader stays away: it runs on the writer's thread only.
  public typealias Put = @Sendable (OutputQueue.Chunk) -> Int32?

  private struct Pending {
    var queue = OutputQueue()
    var failure: TerminalOutputError?
    var caughtUp: (@Sendable () -> Void)?
    var failed: (@Sendable (TerminalOutputError) -> Void)?
  }

  private let worker: SerialWorker<Pending, OutputQueue.Chunk>

  /// - Parameter put: writes a chunk; ``descriptors(stdout:stderr:)`` for the process's own.
  public init(label: String = "btc-price.output", put: @escaping Put) {
    let callbacks = Locked<SerialWorker<Pending, OutputQueue.Chunk>?>(nil)
    worker = SerialWorker(
      label: label, Pending(),
      next: { pending in pending.failure == nil ? pending.queue.next() : nil },
      run: { chunk in
        guard let code = put(chunk), chunk.stream == .stdout else { return }
        let failure = TerminalOutputError(errno: code)
        let failed = callbacks.value?.withPending { pending in
          pending.failure = failure
          pending.queue.removeAll()
          return pending.failed
        }
        failed?(failure)
      },
      caughtUp: { callbacks.value?.withPending(\.caughtUp)?() })
    callbacks.withValue { $0 = worker }
  }

  /// Queues `text` and returns at once.
  ///
  /// - Throws: the failure of an earlier write of stdout, for text meant for stdout.
  public func write(
    _ text: String, to stream: OutputQueue.Stream = .stdout, as kind: OutputQueue.Kind
  ) throws(TerminalOutputError) {
    let refused = worker.hand { pending -> (handed: Bool, result: TerminalOutputError?) in
      if let failure = pending.failure { return (false, failure) }
      pending.queue.append(text, to: stream, as: kind)
      return (true, nil)
    }
    if let refused, stream == .stdout { throw refused }
  }

  /// Whether output handed over has not all been written yet.
  public var isBehind: Bool { !worker.isIdle }

  /// Why stdout can take no more, once a write of it failed.
  public var failure: TerminalOutputError? {
    worker.withPending(\.failure)
  }

  /// `body` runs on the writer's thread each time everything handed over has been written (the
  /// live panel then draws the newest frame it held back). It must not block.
  public func whenCaughtUp(_ body: @escaping @Sendable () -> Void) {
    worker.withPending { $0.caughtUp = body }
  }

  /// `body` runs once, on the writer's thread, when a write of stdout fails.
  public func whenFailed(_ body: @escaping @Sendable (TerminalOutputError) -> Void) {
    worker.withPending { $0.failed = body }
  }

  /// Returns once everything handed over has been written, or the output failed: however long
  /// the reader stays away (a run that ends on its own waits for its reader, as `cat` does).
  public func finish() async {
    await worker.finish()
  }

  /// Waits at most `bound` (nil: for ever) for everything handed over to be written; false
  /// when it was not. For the ways out that cannot wait for a reader (a signal, Ctrl-Z), and for
  /// one-shot output off any event loop: it blocks the calling thread.
  @discardableResult
  public func waitUntilWritten(atMost bound: Duration? = nil) -> Bool {
    worker.waitUntilIdle(atMost: bound)
  }
}

extension TerminalWriter {
  /// The writers of the process's stdout and stderr: one for both when they are the same file
  /// (a terminal, `2>&1`), so that their lines keep their order; otherwise one each, so that a
  /// reader who stopped reading one never holds up the other. stdout's writer hands the notice
  /// of a gap to stderr's.
  public static func standardStreams(
    stdout: Int32 = STDOUT_FILENO, stderr: Int32 = STDERR_FILENO
  ) -> (stdout: TerminalWriter, stderr: TerminalWriter) {
    if isSameFile(stdout, stderr) {
      let both = TerminalWriter(put: descriptors(stdout: stdout, stderr: stderr))
      return (both, both)
    }
    let errors = TerminalWriter(
      label: "btc-price.stderr", put: descriptors(stdout: stdout, stderr: stderr))
    let output = TerminalWriter(label: "btc-price.stdout") { chunk in
      guard chunk.stream == .stdout else {
        try? errors.write(chunk.text, to: .stderr, as: .diagnostic)
        return nil
      }
      return put(chunk.text, to: stdout)
    }
    return (output, errors)
  }

  /// Whether two descriptors are open on the same file (device and inode).
  static func isSameFile(_ first: Int32, _ second: Int32) -> Bool {
    var one = stat()
    var other = stat()
    guard fstat(first, &one) == 0, fstat(second, &other) == 0 else { return false }
    return one.st_dev == other.st_dev && one.st_ino == other.st_ino
  }

  /// Writes chunks to these file descriptors: stdout's chunks to `stdout`, stderr's to `stderr`.
  public static func descriptors(stdout: Int32, stderr: Int32) -> Put {
    { chunk in put(chunk.text, to: chunk.stream == .stdout ? stdout : stderr) }
  }

  /// Writes every byte, retrying short and interrupted writes; returns the `errno` of a failed
  /// write, or nil.
  ///
  /// Straight `write(2)` calls: this runs every tick, and `FileHandle` costs an extra copy into
  /// `Data` and an object per write.
  public static func put(_ text: String, to descriptor: Int32) -> Int32? {
    var text = text
    return text.withUTF8 { bytes -> Int32? in
      var offset = 0
      while offset < bytes.count {
        let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
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

extension TerminalOutputError {
  /// The error of a failed write of stdout: EPIPE is a reader that went away (`| head`).
  public init(errno code: Int32) {
    self = code == EPIPE ? .readerGone : .failed(String(cString: strerror(code)))
  }
}

/// `write(2)`, named apart from ``TerminalWriter/write(_:to:as:)``: inside the type the bare name
/// means the method, and the libc module to prefix it with differs per platform.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}
