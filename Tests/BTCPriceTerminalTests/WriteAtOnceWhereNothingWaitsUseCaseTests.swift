import BTCPriceCore
import BTCPriceRuntime
import BTCPriceTerminal
import BTCPriceTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `TerminalWriter` with a write that never waits: a chunk handed over while nothing waits is
/// written at once by whoever hands it over, and only what that write could not take goes to the
/// writer's thread, behind nothing and ahead of everything handed over later. So a run whose
/// lines go to a pipe wakes no thread for them (issue 32), and nothing changes in what a reader
/// reads or in how a failure is told.
@Suite("Write at once where nothing waits", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct WriteAtOnceWhereNothingWaitsUseCaseTests {
  @Test func aChunkTheFileTakes_isWrittenBeforeTheWriteReturns_andNoThreadWritesIt() throws {
    let file = AttemptingFile(answers: [.written, .written])
    let sut = TerminalWriter(put: file.put, attempt: file.attempt)

    try sut.write("1\n", as: .line(keepingNewest: 10))
    try sut.write("2\n", to: .stderr, as: .diagnostic)

    #expect(file.attempted == ["1\n", "stderr: 2\n"])
    #expect(file.threadWrote.isEmpty)
    #expect(!sut.isBehind)
  }

  @Test func aChunkThatWouldWait_goesToTheThread_andLaterOnesQueueBehindIt() async throws {
    let file = AttemptingFile(answers: [.declined, .written], stalled: true)
    let sut = TerminalWriter(put: file.put, attempt: file.attempt)

    try sut.write("1\n", as: .line(keepingNewest: 10))
    #expect(file.hasStalled())
    try sut.write("2\n", as: .line(keepingNewest: 10))
    try sut.write("3\n", as: .line(keepingNewest: 10))
    #expect(sut.isBehind)
    #expect(file.attempted == ["1\n"], "nothing may overtake what the thread still writes")

    file.comeBack()
    await sut.finish()
    #expect(file.threadWrote == ["1\n", "2\n", "3\n"])

    try sut.write("4\n", as: .line(keepingNewest: 10))
    #expect(file.attempted == ["1\n", "4\n"], "with nothing waiting, the next is tried at once")
    #expect(file.threadWrote == ["1\n", "2\n", "3\n"])
  }

  @Test func whatAPartialWriteLeft_isWrittenByTheThreadAheadOfTheRest() async throws {
    let file = AttemptingFile(answers: [.partly(count: 9)])
    let sut = TerminalWriter(put: file.put, attempt: file.attempt)
    // Handed over by another thread while the first line is being written.
    file.duringTheFirstAttempt { try? sut.write("next\n", as: .line(keepingNewest: 10)) }

    try sut.write("Nov 28 - $68,901.23\n", as: .line(keepingNewest: 10))
    await sut.finish()

    #expect(file.threadWrote == ["$68,901.23\n", "next\n"])
  }

  @Test func whatWasHandedOverDuringAWriteAtOnce_isWrittenRightAfterIt() async throws {
    let file = AttemptingFile(answers: [.written])
    let sut = TerminalWriter(put: file.put, attempt: file.attempt)
    file.duringTheFirstAttempt {
      try? sut.write("2\n", as: .line(keepingNewest: 10))
      // The thread, woken for it, must leave it until the write under way is done.
      sut.waitUntilWritten()
    }

    try sut.write("1\n", as: .line(keepingNewest: 10))
    await sut.finish()

    #expect(file.written == ["1\n", "2\n"])
    #expect(file.threadWrote == ["2\n"], "the thread is woken again for what waited")
  }

  @Test func aChunkBeingWrittenAtOnce_isOutputStillBehind() throws {
    let file = AttemptingFile(answers: [.written])
    let sut = TerminalWriter(put: file.put, attempt: file.attempt)
    let behindMeanwhile = Locked<Bool?>(nil)
    file.duringTheFirstAttempt { behindMeanwhile.withValue { $0 = sut.isBehind } }

    try sut.write("frame", as: .whole)

    #expect(behindMeanwhile.value == true, "the live panel would draw over a frame half out")
    #expect(!sut.isBehind)
  }

  /// Right after a write at once, what was handed over meanwhile is the thread's; a line
  /// handed over before the thread has taken it must queue behind it, not be written at once.
  /// The thread takes tens of microseconds to wake, the next write a few: repeated, an
  /// overtaking line shows almost every time, and a correct writer never shows one.
  @Test func aLineHandedOverWhileTheThreadIsBeingWoken_doesNotOvertakeWhatWaits() async throws {
    for _ in 1...50 {
      let file = AttemptingFile(answers: [.written])
      let sut = TerminalWriter(put: file.put, attempt: file.attempt)
      file.duringTheFirstAttempt { try? sut.write("2\n", as: .line(keepingNewest: 10)) }

      try sut.write("1\n", as: .line(keepingNewest: 10))
      try sut.write("3\n", as: .line(keepingNewest: 10))
      await sut.finish()

      #expect(file.written == ["1\n", "2\n", "3\n"])
    }
  }

  @Test func aFileThatCannotBeWrittenThatWay_isNotAskedAgain() async throws {
    let file = AttemptingFile(answers: [.unsupported])
    let sut = TerminalWriter(put: file.put, attempt: file.attempt)

    try sut.write("1\n", as: .line(keepingNewest: 10))
    await sut.finish()
    try sut.write("2\n", as: .line(keepingNewest: 10))
    await sut.finish()

    #expect(file.attempted == ["1\n"])
    #expect(file.threadWrote == ["1\n", "2\n"])
  }

  @Test func aReaderGoneFoundAtOnce_failsTheNextWrites_andIsToldOnce() throws {
    let failures = Locked<[TerminalOutputError]>([])
    let file = AttemptingFile(answers: [.failed(errno: EPIPE)])
    let sut = TerminalWriter(put: file.put, attempt: file.attempt)
    sut.whenFailed { failures.append($0) }

    try sut.write("1\n", as: .line(keepingNewest: 10))

    #expect(failures.value == [.readerGone])
    #expect(sut.failure == .readerGone)
    #expect(throws: TerminalOutputError.readerGone) {
      try sut.write("2\n", as: .line(keepingNewest: 10))
    }
    #expect(file.attempted == ["1\n"])
    #expect(file.threadWrote.isEmpty)
  }

  @Test func aFailedWriteOfStderrAtOnce_isIgnored() throws {
    let file = AttemptingFile(answers: [.failed(errno: EPIPE), .written])
    let sut = TerminalWriter(put: file.put, attempt: file.attempt)

    try sut.write("w\n", to: .stderr, as: .diagnostic)
    try sut.write("price\n", as: .line(keepingNewest: 10))

    #expect(sut.failure == nil)
    #expect(file.attempted == ["stderr: w\n", "price\n"])
  }

  // MARK: - The real write, on real files

  /// `pwritev2` with `RWF_NOWAIT` is Linux's; elsewhere nothing is written at once.
  static let linuxOnly = Testing.ConditionTrait.enabled(
    if: isLinux, "Linux: a write that never waits is pwritev2's RWF_NOWAIT")
  #if os(Linux)
    static let isLinux = true
  #else
    static let isLinux = false
  #endif

  @Test(linuxOnly) func aPipe_takesALineAtOnce() throws {
    let pipe = try RealPipe()
    let attempt = try #require(TerminalWriter.withoutWaiting(pipe.writeEnd, for: .stdout))

    #expect(attempt(.init("Nov 28, 12:00:00 - $68,901.23\n", to: .stdout)) == .written)
    #expect(pipe.readAvailable() == "Nov 28, 12:00:00 - $68,901.23\n")
    #expect(attempt(.init("a warning\n", to: .stderr)) == .declined, "not this writer's stream")
  }

  @Test(linuxOnly) func aFullPipe_declinesTheLineWhole_andTakesItOnceRead() throws {
    let pipe = try RealPipe()
    let attempt = try #require(TerminalWriter.withoutWaiting(pipe.writeEnd, for: .stdout))
    let line = String(repeating: "x", count: 99) + "\n"
    var lines = 0
    while attempt(.init(line, to: .stdout)) == .written { lines += 1 }

    #expect(lines > 0 && lines < 100_000, "a pipe holds a bounded number of lines")
    #expect(pipe.readAvailable().count == lines * 100, "only whole lines went in")
    #expect(attempt(.init(line, to: .stdout)) == .written)
  }

  @Test(linuxOnly) func aLineLongerThanAPipesAtomicWrite_isLeftToTheThread() throws {
    let pipe = try RealPipe()
    let attempt = try #require(TerminalWriter.withoutWaiting(pipe.writeEnd, for: .stdout))

    #expect(attempt(.init(String(repeating: "x", count: 4_097), to: .stdout)) == .declined)
    #expect(attempt(.init(String(repeating: "x", count: 4_096), to: .stdout)) == .written)
  }

  @Test(linuxOnly) func aPipeWhoseReaderIsGone_saysSo() throws {
    // As the tool does from its start (Entry), so that the write answers EPIPE.
    signal(SIGPIPE, SIG_IGN)
    let pipe = try RealPipe()
    let attempt = try #require(TerminalWriter.withoutWaiting(pipe.writeEnd, for: .stdout))
    pipe.closeReadEnd()

    #expect(attempt(.init("1\n", to: .stdout)) == .failed(errno: EPIPE))
  }

  @Test func aFileOnDisk_isNeverWrittenAtOnce() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("btc-price-at-once-\(UUID().uuidString)").path
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    try #require(descriptor >= 0)
    defer {
      close(descriptor)
      unlink(path)
    }

    #expect(TerminalWriter.withoutWaiting(descriptor, for: .stdout) == nil)
  }

  @Test(linuxOnly) func aTerminal_refusesTheWrite_soTheThreadWritesItsLines() throws {
    let terminal = try PseudoTerminal()
    let attempt = try #require(TerminalWriter.withoutWaiting(terminal.follower, for: .stdout))

    #expect(attempt(OutputQueue.Chunk("1\n", to: .stdout)) == .unsupported)
  }

}

/// A file whose writes that never wait answer as told, in turn (`.written` once the answers run
/// out), and whose thread's writes block until ``comeBack()`` when it is stalled. What each got
/// is recorded, stderr's with a prefix.
private final class AttemptingFile: Sendable {
  private let answers: Locked<[TerminalWriter.Attempted]>
  private let stall = Stall()
  private let attempts = Locked<[String]>([])
  private let puts = Locked<[String]>([])
  /// What reached the file, by either way, in the order it did.
  private let all = Locked<[String]>([])
  private let during = Locked<(@Sendable () -> Void)?>(nil)

  init(answers: [TerminalWriter.Attempted], stalled: Bool = false) {
    self.answers = Locked(answers)
    if !stalled { stall.release() }
  }

  var attempted: [String] { attempts.value }
  var threadWrote: [String] { puts.value }
  var written: [String] { all.value }

  /// `body` runs inside the first write at once, before it returns.
  func duringTheFirstAttempt(_ body: @escaping @Sendable () -> Void) {
    during.withValue { $0 = body }
  }

  func hasStalled() -> Bool { stall.hasStalled() }
  func comeBack() { stall.release() }

  var attempt: TerminalWriter.Attempt {
    { [answers, attempts, all, during] chunk in
      attempts.append(Self.recorded(chunk))
      let answer = answers.withValue { $0.isEmpty ? .written : $0.removeFirst() }
      during.withValue { body in
        defer { body = nil }
        return body
      }?()
      // The bytes are in the file once the write returns.
      if answer == .written { all.append(Self.recorded(chunk)) }
      return answer
    }
  }

  var put: TerminalWriter.Put {
    { [stall, puts, all] chunk in
      stall.pass()
      puts.append(Self.recorded(chunk))
      all.append(Self.recorded(chunk))
      return nil
    }
  }

  private static func recorded(_ chunk: OutputQueue.Chunk) -> String {
    chunk.stream == .stdout ? chunk.text : "stderr: " + chunk.text
  }
}

/// A pipe of the kernel's, its read end non-blocking so a test can take what is in it.
private final class RealPipe {
  private var ends: [Int32] = [-1, -1]
  var writeEnd: Int32 { ends[1] }

  init() throws {
    try #require(pipe(&ends) == 0)
    _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
  }

  deinit {
    for end in ends where end >= 0 { close(end) }
  }

  func readAvailable() -> String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = read(ends[0], &buffer, buffer.count)
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  func closeReadEnd() {
    close(ends[0])
    ends[0] = -1
  }
}

/// A pseudo-terminal of Linux's: `/dev/ptmx` and its follower, unlocked and opened by the ioctls
/// `grantpt`, `unlockpt` and `ptsname` use (Swift's Glibc module declares none of the three).
/// `TIOCSPTLCK` and `TIOCGPTN` are `_IOW`/`_IOR` macros, which Swift does not import: their
/// values here are those of the generic encoding (x86-64, arm64).
private final class PseudoTerminal {
  let leader: Int32
  let follower: Int32

  init() throws {
    leader = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    try #require(leader >= 0)
    var unlocked: Int32 = 0
    var number: UInt32 = 0
    let lock = ioctl(leader, 0x4004_5431, &unlocked)  // TIOCSPTLCK
    let named = ioctl(leader, 0x8004_5430, &number)  // TIOCGPTN
    follower = lock == 0 && named == 0 ? open("/dev/pts/\(number)", O_RDWR | O_NOCTTY) : -1
    if follower < 0 { close(leader) }
    try #require(follower >= 0)
  }

  deinit {
    close(follower)
    close(leader)
  }
}
