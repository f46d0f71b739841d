import BTCPriceCore
import BTCPriceRuntime
import BTCPriceTerminal
import BTCPriceTestSupport
import Foundation
import Testing

/// `TerminalWriter`: whoever hands it a line (the event loop that also answers the streams'
/// pings) never waits for the reader; the writer's own thread does, and says what failed.
@Suite("Never wait for the reader", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct NeverWaitForTheReaderUseCaseTests {
  @Test func writes_returnAtOnceWhileTheReaderIsAway_andComeOutInOrderWhenItIsBack() async {
    let reader = StalledReader()
    let sut = TerminalWriter(put: reader.put)
    try? sut.write("first\n", as: .line(keepingNewest: 3))
    #expect(reader.hasStalled())

    for line in 2...10 { try? sut.write("\(line)\n", as: .line(keepingNewest: 3)) }
    #expect(sut.isBehind)
    #expect(!sut.waitUntilWritten(atMost: .milliseconds(20)), "the reader is still away")

    reader.comeBack()
    await sut.finish()

    #expect(!sut.isBehind)
    #expect(
      reader.written == [
        "first\n",
        "stderr: btc-price: warning: stdout was blocked, so its 6 oldest waiting lines were "
          + "left out; the newest 3 follow\n",
        "8\n", "9\n", "10\n",
      ])
  }

  @Test func aReaderThatWentAway_failsTheNextWrites_andIsToldOnce() async {
    let failures = Locked<[TerminalOutputError]>([])
    let sut = TerminalWriter { _ in EPIPE }
    sut.whenFailed { failures.append($0) }

    try? sut.write("1\n", as: .line(keepingNewest: 10))
    await sut.finish()

    #expect(sut.failure == .readerGone)
    #expect(throws: TerminalOutputError.readerGone) {
      try sut.write("2\n", as: .line(keepingNewest: 10))
    }
    #expect(failures.value == [.readerGone])
  }

  @Test func anyOtherWriteError_isSaidInWords() async {
    let sut = TerminalWriter { _ in ENOSPC }

    try? sut.write("1\n", as: .whole)
    await sut.finish()

    #expect(sut.failure == .failed("No space left on device"))
  }

  @Test func aFailedWriteOfStderr_isIgnored() async throws {
    let written = Locked<[String]>([])
    let sut = TerminalWriter { chunk in
      guard chunk.stream == .stdout else { return EPIPE }
      written.append(chunk.text)
      return nil
    }

    try sut.write("w\n", to: .stderr, as: .diagnostic)
    try sut.write("price\n", as: .line(keepingNewest: 10))
    await sut.finish()

    #expect(sut.failure == nil)
    #expect(written.value == ["price\n"])
  }

  @Test func caughtUp_isToldOnTheWritersThreadOnceEverythingIsWritten() async throws {
    let reader = StalledReader()
    let sut = TerminalWriter(put: reader.put)
    let caughtUp = Locked<[Int]>([])
    sut.whenCaughtUp { caughtUp.append(reader.written.count) }

    try sut.write("frame\n", as: .whole)
    #expect(reader.hasStalled())
    #expect(caughtUp.value.isEmpty, "not while a write waits for the reader")
    reader.comeBack()
    await sut.finish()

    #expect(caughtUp.value == [1])
  }

  @Test func waitUntilWritten_givesUpAfterItsBound() {
    let reader = StalledReader()
    let sut = TerminalWriter(put: reader.put)
    try? sut.write("1\n", as: .whole)

    let started = ContinuousClock.now
    #expect(!sut.waitUntilWritten(atMost: .milliseconds(50)))
    #expect(ContinuousClock.now - started < .seconds(5))
    reader.comeBack()
  }

  @Test func standardStreams_shareOneWriterOnlyWhenStdoutAndStderrAreTheSameFile() throws {
    let pipe = Pipe()
    let other = Pipe()
    let out = pipe.fileHandleForWriting.fileDescriptor

    let same = TerminalWriter.standardStreams(stdout: out, stderr: out)
    let apart = TerminalWriter.standardStreams(
      stdout: out, stderr: other.fileHandleForWriting.fileDescriptor)

    #expect(same.stdout === same.stderr)
    #expect(apart.stdout !== apart.stderr)
  }

  /// `btc-price --once > price.txt 2> errors.txt`: files are written by the writers' threads (a
  /// write at once is tried only on a pipe or a terminal), each stream to its own file, every
  /// byte of it; a warning handed to stdout's writer goes to stderr's file too.
  @Test func standardStreams_toTwoFiles_writeEachStreamWholeToItsOwnFile() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("two-files-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let outPath = folder.appendingPathComponent("price.txt").path
    let errPath = folder.appendingPathComponent("errors.txt").path
    let out = open(outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let err = open(errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    defer {
      close(out)
      close(err)
    }

    let writers = TerminalWriter.standardStreams(stdout: out, stderr: err)
    try writers.stdout.write("Nov 29, 03:41:07 - $68,901.23\n", as: .line(keepingNewest: 3))
    try writers.stdout.write("btc-price: warning: stale\n", to: .stderr, as: .diagnostic)
    try writers.stderr.write("btc-price: warning: offline\n", to: .stderr, as: .diagnostic)
    await writers.stdout.finish()
    await writers.stderr.finish()

    #expect(
      try String(contentsOfFile: outPath, encoding: .utf8) == "Nov 29, 03:41:07 - $68,901.23\n")
    // Two writers, so the two warnings come in either order.
    let warnings = try String(contentsOfFile: errPath, encoding: .utf8)
    #expect(
      warnings.split(separator: "\n", omittingEmptySubsequences: false).sorted()
        == ["", "btc-price: warning: offline", "btc-price: warning: stale"], "\(warnings)")
  }
}

/// A reader that stopped reading: the first write blocks until it comes back. Everything written
/// is recorded, stderr's with a prefix.
private final class StalledReader: Sendable {
  private let stall = Stall()
  private let state = Locked<[String]>([])

  var written: [String] { state.value }

  func hasStalled() -> Bool { stall.hasStalled() }

  func comeBack() { stall.release() }

  var put: TerminalWriter.Put {
    { [stall, state] chunk in
      stall.pass()
      state.append(chunk.stream == .stdout ? chunk.text : "stderr: " + chunk.text)
      return nil
    }
  }
}
