import BTCPriceCore
import BTCPriceRuntime
import CBTCPriceRuntime

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes stdout and stderr on a thread of its own, so that nothing that hands it a line ever
/// waits for a reader. The event loop that reads the price streams and answers their pings
/// queues its lines here and goes on: a paused pager, Ctrl-S or a full pipe would stop the
/// pongs, and an exchange would then close the connection (ENGINEERING rule 11).
///
/// Where the file can be written without waiting (a pipe, on Linux), a chunk handed over while
/// nothing waits is written at once by the caller, with a write that never blocks
/// (``Attempt``); only what that write could not take goes to the thread, so a tool whose
/// lines go to a pipe wakes no thread for them (docs/PERFORMANCE.md, "Threads and wake-ups").
/// A terminal or a file on disk refuses that kind of write once, and from then on every chunk
/// goes to the thread.
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

  /// Writes a chunk without waiting, on the thread that hands it over; it must never block.
  public typealias Attempt = @Sendable (OutputQueue.Chunk) -> Attempted

  /// What a write that never waits did with a chunk.
  public enum Attempted: Sendable, Equatable {
    /// All of it is written.
    case written
    /// Only the first `count` bytes are written (a pipe with little room left).
    case partly(count: Int)
    /// Nothing is written: it would have waited, or this chunk is not for this kind of write.
    case declined
    /// Nothing is written, and this file cannot be written this way (a terminal, a file on
    /// disk): every later chunk goes to the thread without asking again.
    case unsupported
    /// The write failed with this `errno` (EPIPE: the reader is gone).
    case failed(errno: Int32)
  }

  private typealias FailureCallback = @Sendable (TerminalOutputError) -> Void

  private struct Pending {
    var queue = OutputQueue()
    var failure: TerminalOutputError?
    var caughtUp: (@Sendable () -> Void)?
    var failed: FailureCallback?
    /// The thread has a chunk in hand: it asked for one and has not asked again.
    var threadWriting = false
    /// A caller is writing a chunk without waiting: the thread takes nothing meanwhile (woken
    /// by another chunk, it finds nothing to do; the write at once wakes it again when done).
    var writingAtOnce = false
    /// What a write at once left unwritten: the thread writes it before anything queued.
    var rest: OutputQueue.Chunk?
    /// The file refused a write that does not wait.
    var attemptRefused = false

    /// Whether a chunk handed over now may be written at once: nothing waits or is being
    /// written, so it cannot overtake anything.
    var mayWriteAtOnce: Bool {
      failure == nil && !attemptRefused && !threadWriting && !writingAtOnce && rest == nil
        && queue.isEmpty
    }

    mutating func nextForTheThread() -> OutputQueue.Chunk? {
      guard failure == nil, !writingAtOnce else {
        threadWriting = false
        return nil
      }
      let chunk = rest ?? queue.next()
      rest = nil
      threadWriting = chunk != nil
      return chunk
    }

    /// Records that a write of stdout failed; returns whom to tell.
    mutating func fail(_ failure: TerminalOutputError) -> FailureCallback? {
      self.failure = failure
      queue.removeAll()
      rest = nil
      return failed
    }
  }

  private let worker: SerialWorker<Pending, OutputQueue.Chunk>
  private let attempt: Attempt?

  /// - Parameters:
  ///   - put: writes a chunk; ``descriptors(stdout:stderr:)`` for the process's own.
  ///   - attempt: writes a chunk without waiting, if the file can be written that way
  ///     (``withoutWaiting(_:for:)``); nil: every chunk is written on the thread.
  public init(label: String = "btc-price.output", put: @escaping Put, attempt: Attempt? = nil) {
    self.attempt = attempt
    let callbacks = Locked<SerialWorker<Pending, OutputQueue.Chunk>?>(nil)
    worker = SerialWorker(
      label: label, Pending(),
      next: { pending in pending.nextForTheThread() },
      run: { chunk in
        guard let code = put(chunk), chunk.stream == .stdout else { return }
        let failure = TerminalOutputError(errno: code)
        callbacks.value?.withPending { $0.fail(failure) }?(failure)
      },
      caughtUp: { callbacks.value?.withPending(\.caughtUp)?() })
    callbacks.withValue { $0 = worker }
  }

  /// Queues `text` and returns at once; or, where the file takes it without waiting and
  /// nothing else waits, writes it at once.
  ///
  /// - Throws: the failure of an earlier write of stdout, for text meant for stdout.
  public func write(
    _ text: String, to stream: OutputQueue.Stream = .stdout, as kind: OutputQueue.Kind
  ) throws(TerminalOutputError) {
    let attempt = attempt
    let (refused, atOnce) = worker.hand {
      pending -> (handed: Bool, result: (TerminalOutputError?, Bool)) in
      if let failure = pending.failure { return (false, (failure, false)) }
      if attempt != nil, pending.mayWriteAtOnce {
        pending.writingAtOnce = true
        return (false, (nil, true))
      }
      pending.queue.append(text, to: stream, as: kind)
      return (true, (nil, false))
    }
    if let refused, stream == .stdout { throw refused }
    if atOnce, let attempt { writeAtOnce(OutputQueue.Chunk(text, to: stream), attempt) }
  }

  /// Writes `chunk` with `attempt`, outside the lock, and hands the thread what it left.
  private func writeAtOnce(_ chunk: OutputQueue.Chunk, _ attempt: Attempt) {
    let attempted = attempt(chunk)
    let failed = worker.hand {
      pending -> (handed: Bool, result: (TerminalOutputError, FailureCallback?)?) in
      pending.writingAtOnce = false
      switch attempted {
      case .written:
        break
      case .partly(let count):
        // A count inside a character would leave its last bytes replaced by U+FFFD; it does
        // not happen where writes are attempted (``withoutWaiting(_:for:)``).
        pending.rest = OutputQueue.Chunk(
          String(decoding: chunk.text.utf8.dropFirst(count), as: UTF8.self), to: chunk.stream)
      case .declined:
        pending.rest = chunk
      case .unsupported:
        pending.attemptRefused = true
        pending.rest = chunk
      case .failed(let code):
        if chunk.stream == .stdout {
          let failure = TerminalOutputError(errno: code)
          return (false, (failure, pending.fail(failure)))
        }
      }
      // What was handed over meanwhile waited for this write: the thread takes it now.
      return (pending.rest != nil || !pending.queue.isEmpty, nil)
    }
    if let (failure, tell) = failed { tell?(failure) }
  }

  /// Whether output handed over has not all been written yet.
  public var isBehind: Bool { !worker.isIdle || worker.withPending(\.writingAtOnce) }

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
    let attemptStdout = withoutWaiting(stdout, for: .stdout)
    let attemptStderr = withoutWaiting(stderr, for: .stderr)
    if isSameFile(stdout, stderr) {
      // One file: both attempts are there, or neither.
      var attempt: Attempt?
      if let attemptStdout, let attemptStderr {
        attempt = { chunk in
          chunk.stream == .stdout ? attemptStdout(chunk) : attemptStderr(chunk)
        }
      }
      let both = TerminalWriter(put: descriptors(stdout: stdout, stderr: stderr), attempt: attempt)
      return (both, both)
    }
    let errors = TerminalWriter(
      label: "btc-price.stderr", put: descriptors(stdout: stdout, stderr: stderr),
      attempt: attemptStderr)
    let output = TerminalWriter(
      label: "btc-price.stdout",
      put: { chunk in
        guard chunk.stream == .stdout else {
          try? errors.write(chunk.text, to: .stderr, as: .diagnostic)
          return nil
        }
        return put(chunk.text, to: stdout)
      }, attempt: attemptStdout)
    return (output, errors)
  }

  /// Writes a stream's chunks to `descriptor` without waiting (``Attempt``), where that is
  /// known to write a line whole or not at all: a pipe, whose writes of up to `PIPE_BUF`
  /// (4,096 bytes on Linux) are atomic, or a character device (`/dev/null`; a terminal
  /// refuses it, once). nil for anything else (a file on disk, a socket), whose chunks the
  /// thread writes, and on systems other than Linux. A chunk of another stream, or longer than
  /// 4,096 bytes, is declined.
  ///
  /// The process must ignore SIGPIPE, as SwiftNIO's first socket has it do, and the tool's
  /// `Console` as it makes its writers: a reader gone is then EPIPE, not a signal on the
  /// caller's thread.
  public static func withoutWaiting(
    _ descriptor: Int32, for stream: OutputQueue.Stream
  ) -> Attempt? {
    #if os(Linux)
      var status = stat()
      guard fstat(descriptor, &status) == 0 else { return nil }
      let type = status.st_mode & mode_t(S_IFMT)
      guard type == mode_t(S_IFIFO) || type == mode_t(S_IFCHR) else { return nil }
      return { chunk in
        guard chunk.stream == stream else { return .declined }
        var text = chunk.text
        return text.withUTF8 { bytes -> Attempted in
          guard bytes.count <= 4_096 else { return .declined }
          guard let start = bytes.baseAddress else { return .written }
          let written = btc_write_without_waiting(descriptor, start, bytes.count)
          if written == bytes.count { return .written }
          if written > 0 { return .partly(count: written) }
          if written == 0 { return .declined }
          switch errno {
          case EAGAIN: return .declined
          case EOPNOTSUPP, EINVAL, ENOSYS: return .unsupported
          case let code: return .failed(errno: code)
          }
        }
      }
    #else
      return nil
    #endif
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
