import BTCPriceFeature
import BTCPriceTestSupport
import Testing

@testable import BTCPriceTerminal

/// `OutputQueue`: what waits for a reader that stopped reading (a paused pager, Ctrl-S, a full
/// pipe), what is left out when too much waits, and in which order it comes out.
@Suite("Keep output while the reader is away", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct KeepOutputWhileTheReaderIsAwayUseCaseTests {
  @Test func lines_comeOutInTheOrderTheyWereGiven_acrossStreamsAndKinds() {
    var sut = OutputQueue()
    sut.append("a\n", to: .stdout, as: .line(keepingNewest: 10))
    sut.append("w\n", to: .stderr, as: .diagnostic)
    sut.append("\u{1B}[?25h", to: .stdout, as: .whole)
    sut.append("b\n", to: .stdout, as: .line(keepingNewest: 10))

    #expect(
      drain(&sut) == [
        .init("a\n", to: .stdout), .init("w\n", to: .stderr), .init("\u{1B}[?25h", to: .stdout),
        .init("b\n", to: .stdout),
      ])
    #expect(sut.isEmpty)
  }

  /// A bound of one keeps the newest line alone; a bound below one is read as one (a line
  /// always gets through).
  @Test(arguments: [1, 0, -5])
  func aBoundOfOneOrLess_keepsTheNewestLineAlone(bound: Int) {
    var sut = OutputQueue()
    for line in 1...3 { sut.append("\(line)\n", to: .stdout, as: .line(keepingNewest: bound)) }

    #expect(drain(&sut).filter { $0.stream == .stdout }.map(\.text) == ["3\n"])
  }

  /// Whole output on stderr (a cursor put back where stdout is a pipe) comes out too, in the
  /// place it was given: each of the four heads is looked at.
  @Test func wholeOutputOnStderr_comesOutInItsPlaceAmongTheLines() {
    var sut = OutputQueue()
    sut.append("a\n", to: .stdout, as: .line(keepingNewest: 10))
    sut.append("\u{1B}[?25h", to: .stderr, as: .whole)
    sut.append("b\n", to: .stdout, as: .line(keepingNewest: 10))

    #expect(
      drain(&sut) == [
        .init("a\n", to: .stdout), .init("\u{1B}[?25h", to: .stderr), .init("b\n", to: .stdout),
      ])
  }

  /// What waits is counted across both streams and both kinds.
  @Test func count_isEveryChunkThatWaits() {
    var sut = OutputQueue()
    sut.append("a\n", to: .stdout, as: .line(keepingNewest: 10))
    sut.append("w\n", to: .stderr, as: .diagnostic)
    sut.append("frame", to: .stdout, as: .whole)
    sut.append("\u{1B}[?25h", to: .stderr, as: .whole)

    #expect(sut.count == 4)
  }

  @Test func upToTheBound_nothingIsLeftOut() {
    var sut = OutputQueue()
    for line in 1...3 { sut.append("\(line)\n", to: .stdout, as: .line(keepingNewest: 3)) }

    #expect(drain(&sut).map(\.text) == ["1\n", "2\n", "3\n"])
  }

  @Test func beyondTheBound_theOldestLinesAreLeftOut_andTheGapIsSaidOnceOnStderrBeforeTheRest() {
    var sut = OutputQueue()
    for line in 1...5 { sut.append("\(line)\n", to: .stdout, as: .line(keepingNewest: 3)) }

    #expect(sut.count == 3, "memory stays bounded")
    #expect(
      drain(&sut) == [
        .init(
          "btc-price: warning: stdout was blocked, so its 2 oldest waiting lines were left out; "
            + "the newest 3 follow\n", to: .stderr),
        .init("3\n", to: .stdout), .init("4\n", to: .stdout), .init("5\n", to: .stdout),
      ])
  }

  @Test func oneLineLeftOut_isSaidInTheSingular() {
    var sut = OutputQueue()
    for line in 1...4 { sut.append("\(line)\n", to: .stdout, as: .line(keepingNewest: 3)) }

    #expect(
      sut.next()?.text
        == "btc-price: warning: stdout was blocked, so its oldest waiting line was left out; "
        + "the newest 3 follow\n")
  }

  @Test func eachStream_hasItsOwnBound() {
    var sut = OutputQueue()
    sut.append("price\n", to: .stdout, as: .line(keepingNewest: 2))
    for line in 1...3 { sut.append("w\(line)\n", to: .stderr, as: .line(keepingNewest: 2)) }

    #expect(
      drain(&sut).map(\.text) == [
        "price\n",
        "btc-price: warning: stderr was blocked, so its oldest waiting line was left out; "
          + "the newest 2 follow\n",
        "w2\n", "w3\n",
      ])
  }

  @Test func wholeOutput_isNeverLeftOut_andKeepsItsPlaceAmongTheLines() {
    var sut = OutputQueue()
    sut.append("frame\n", to: .stdout, as: .whole)
    for line in 1...3 { sut.append("w\(line)\n", to: .stderr, as: .line(keepingNewest: 1)) }
    sut.append("cursor", to: .stdout, as: .whole)

    let texts = drain(&sut).map(\.text)
    #expect(texts.first == "frame\n")
    #expect(texts.suffix(2) == ["w3\n", "cursor"])
  }

  @Test func aSecondGap_isSaidAgain_withItsOwnCount() {
    var sut = OutputQueue()
    for line in 1...3 { sut.append("\(line)\n", to: .stdout, as: .line(keepingNewest: 2)) }
    _ = drain(&sut)
    for line in 4...8 { sut.append("\(line)\n", to: .stdout, as: .line(keepingNewest: 2)) }

    let texts = drain(&sut).map(\.text)
    #expect(texts.count == 3)
    #expect(texts[0].contains("its 3 oldest waiting lines were left out"))
    #expect(texts.suffix(2) == ["7\n", "8\n"])
  }

  @Test func aLongBlock_keepsOnlyTheBoundInMemory() {
    var sut = OutputQueue()
    for line in 1...100_000 {
      sut.append("\(line)\n", to: .stdout, as: .line(keepingNewest: 1_000))
    }

    #expect(sut.count == 1_000)
    #expect(sut.next()?.text.contains("its 99000 oldest waiting lines") == true)
    #expect(sut.next()?.text == "99001\n")
  }

  /// Hours of lines through a queue: read as they come, read after a block, or read by a slow
  /// reader that always leaves a few waiting. What was handed out is let go of.
  @Test(arguments: [0, 5])
  func memory_holdsWhatWaits_notWhatWasHandedOut(waiting: Int) {
    var sut = OutputQueue()
    for line in 1...1_000 { sut.append("\(line)\n", to: .stdout, as: .line(keepingNewest: 1_000)) }
    while sut.count > waiting { _ = sut.next() }

    for line in 1...20_000 {
      sut.append("\(line)\n", to: .stdout, as: .line(keepingNewest: 1_000))
      _ = sut.next()
    }

    #expect(sut.count == waiting)
    #expect(sut.storedEntries <= 2 * 64 + waiting, "storage grew with every line handed out")
  }

  @Test func theMemoryMeasure_countsEveryWaitingChunk_ofEveryStreamAndKind() {
    var sut = OutputQueue()
    for line in 1...3 { sut.append("\(line)\n", to: .stdout, as: .line(keepingNewest: 10)) }
    sut.append("w\n", to: .stderr, as: .diagnostic)
    sut.append("frame", to: .stdout, as: .whole)
    sut.append("\u{1B}[?25h", to: .stderr, as: .whole)

    #expect(sut.storedEntries == 6)
  }

  @Test func removeAll_leavesNothingAndNoNotice() {
    var sut = OutputQueue()
    for line in 1...5 { sut.append("\(line)\n", to: .stdout, as: .line(keepingNewest: 2)) }

    sut.removeAll()

    #expect(sut.next() == nil)
  }

  /// README, "Output": people get the recent lines, programs nearly every record, views only
  /// their newest frame.
  @Test func eachMode_waitsAsTheReadmeSays() throws {
    #expect(TerminalSession.Mode.plain(colors: false).stdoutKind == .line(keepingNewest: 1_000))
    #expect(
      TerminalSession.Mode.template(try PriceTemplate("{price}"), colors: false).stdoutKind
        == .line(keepingNewest: 1_000))
    #expect(TerminalSession.Mode.json.stdoutKind == .line(keepingNewest: 10_000))
    #expect(TerminalSession.Mode.waybar(nil).stdoutKind == .whole)
    #expect(TerminalSession.Mode.live(colors: true).stdoutKind == .whole)
    #expect(OutputQueue.Kind.diagnostic == .line(keepingNewest: 1_000))
  }

  private func drain(_ queue: inout OutputQueue) -> [OutputQueue.Chunk] {
    var chunks: [OutputQueue.Chunk] = []
    while let chunk = queue.next() { chunks.append(chunk) }
    return chunks
  }
}
