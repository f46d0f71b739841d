/// What waits to be written to stdout and stderr while a reader is slow or away, and what is
/// left out when too much waits. A plain value; ``TerminalWriter`` holds one and writes what it
/// hands out, in the order it was given.
///
/// - A **line** (a plain, `--format` or `--json` line; a warning or `--verbose` line) waits up to
///   its kind's bound; beyond it the oldest waiting lines of that stream are left out, and the
///   first line of the stream written after the gap comes after one notice on stderr that says
///   how many (``gapNotice(_:leftOut:keeping:)``).
/// - **Whole** output (the live panel's frames and its escapes, Waybar's state) is never left
///   out: ``TerminalSession`` sends the next frame only once the output has caught up, so one
///   waits at most.
///
/// So memory stays bounded however long a reader stays away, and what it reads when it comes
/// back is in order.
public struct OutputQueue: Sendable {
  public enum Stream: Sendable, Equatable {
    case stdout, stderr
  }

  public enum Kind: Sendable, Equatable {
    /// A line of a log: kept in order, at most `keepingNewest` of this stream waiting.
    case line(keepingNewest: Int)
    /// Never left out; its sender bounds it.
    case whole

    /// A warning or a `--verbose` line on stderr. They come a few a tick at most.
    public static let diagnostic = Kind.line(keepingNewest: 1_000)
  }

  public struct Chunk: Sendable, Equatable {
    public let text: String
    public let stream: Stream

    public init(_ text: String, to stream: Stream) {
      self.text = text
      self.stream = stream
    }
  }

  private struct Entry {
    /// The order it was given in, across every stream and kind.
    let order: Int
    let chunk: Chunk
    let keepingNewest: Int?
  }

  /// One queue per stream and kind, so that the oldest line of a stream is always at the head
  /// of its own; ``next()`` takes the entry given first across all four.
  private var lines: [Stream: Fifo<Entry>] = [.stdout: Fifo(), .stderr: Fifo()]
  private var wholes: [Stream: Fifo<Entry>] = [.stdout: Fifo(), .stderr: Fifo()]
  private var given = 0
  /// Lines of each stream left out since its last written line.
  private var leftOut: [Stream: Int] = [:]
  /// The bound in force when a stream's lines were last left out, for the notice.
  private var keptAtGap: [Stream: Int] = [:]

  public init() {}

  public var isEmpty: Bool {
    lines.values.allSatisfy(\.isEmpty) && wholes.values.allSatisfy(\.isEmpty)
  }

  /// How many chunks wait, of every stream and kind.
  public var count: Int {
    lines.values.reduce(0) { $0 + $1.count } + wholes.values.reduce(0) { $0 + $1.count }
  }

  public mutating func append(_ text: String, to stream: Stream, as kind: Kind) {
    given += 1
    switch kind {
    case .whole:
      wholes[stream, default: Fifo()].append(
        Entry(order: given, chunk: Chunk(text, to: stream), keepingNewest: nil))
    case .line(let keepingNewest):
      let bound = max(keepingNewest, 1)
      lines[stream, default: Fifo()].append(
        Entry(order: given, chunk: Chunk(text, to: stream), keepingNewest: bound))
      while let waiting = lines[stream]?.count, waiting > bound {
        _ = lines[stream]?.removeFirst()
        leftOut[stream, default: 0] += 1
        keptAtGap[stream] = bound
      }
    }
  }

  /// The next chunk to write, removed from the queue; nil when nothing waits. A line after a gap
  /// comes after the gap's notice, which is handed out first.
  public mutating func next() -> Chunk? {
    // Four heads compared in place, without building arrays: this runs twice for every line
    // (docs/PERFORMANCE.md, "What we own in a tick").
    var head: (stream: Stream, isLine: Bool, entry: Entry)?
    func consider(_ stream: Stream, isLine: Bool, _ entry: Entry?) {
      guard let entry, head.map({ entry.order < $0.entry.order }) ?? true else { return }
      head = (stream, isLine, entry)
    }
    consider(.stdout, isLine: true, lines[.stdout]?.first)
    consider(.stdout, isLine: false, wholes[.stdout]?.first)
    consider(.stderr, isLine: true, lines[.stderr]?.first)
    consider(.stderr, isLine: false, wholes[.stderr]?.first)
    guard let (stream, isLine, entry) = head else { return nil }
    if isLine, let count = leftOut[stream], count > 0 {
      leftOut[stream] = 0
      return Chunk(
        Self.gapNotice(stream, leftOut: count, keeping: keptAtGap[stream] ?? 0), to: .stderr)
    }
    if isLine {
      _ = lines[stream]?.removeFirst()
    } else {
      _ = wholes[stream]?.removeFirst()
    }
    return entry.chunk
  }

  /// The entries held in storage: those that wait, and those handed out that the storage has
  /// not let go of yet. What the queue costs in memory, for its tests.
  var storedEntries: Int {
    lines.values.reduce(0) { $0 + $1.stored } + wholes.values.reduce(0) { $0 + $1.stored }
  }

  /// Leaves out everything that waits (the output failed: nothing more will be written).
  public mutating func removeAll() {
    self = OutputQueue()
  }

  /// What the reader is told, once, where lines were left out.
  public static func gapNotice(_ stream: Stream, leftOut count: Int, keeping kept: Int) -> String {
    let name = stream == .stdout ? "stdout" : "stderr"
    let lines =
      count == 1 ? "its oldest waiting line was" : "its \(count) oldest waiting lines were"
    return "btc-price: warning: \(name) was blocked, so \(lines) left out; "
      + "the newest \(kept) follow\n"
  }
}

/// A first-in, first-out queue whose removals from the front cost nothing on average.
private struct Fifo<Element: Sendable>: Sendable {
  private var items: [Element] = []
  private var head = 0

  var isEmpty: Bool { head == items.count }
  var count: Int { items.count - head }
  var first: Element? { isEmpty ? nil : items[head] }
  var stored: Int { items.count }

  mutating func append(_ element: Element) {
    items.append(element)
  }

  mutating func removeFirst() -> Element? {
    guard !isEmpty else { return nil }
    let element = items[head]
    head += 1
    // Compact once the removed front is at least half of the storage.
    if head >= 64, head * 2 >= items.count {
      items.removeFirst(head)
      head = 0
    }
    return element
  }
}
