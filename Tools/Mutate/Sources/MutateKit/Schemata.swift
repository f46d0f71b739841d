/// Every mutant of a file compiled in at once, behind a switch read at run time (mutant
/// schemata, as Muter and mull do): one build serves all of a module's mutants.
///
/// An expression becomes `(sw(7) ? MUTANT : ORIGINAL)`, a statement
/// `if sw(8) { MUTANT } else { ORIGINAL }`. A mutant's alternative is the original text with its
/// one change (only one mutant is on at a time, so the others need not be inside it), written on
/// one line: the schematized file keeps the original's line numbers, which coverage and the
/// compiler's errors are read at.
public struct Schemata: Sendable {
  public let text: String
  /// Where each mutant's alternative sits in `text` (UTF-8 offsets).
  public let alternatives: [Int: Range<Int>]
  /// Each place with mutants: its whole schema in `text`, and the mutants.
  public let groups: [(range: Range<Int>, ids: [Int])]
  /// Spans of `text` copied from the original: where they are there and here.
  let copies: [(output: Range<Int>, original: Int)]

  public init(source: String, mutants: [Mutant], switchName: String) {
    var builder = Builder(bytes: Array(source.utf8), switchName: switchName)
    let roots = Node.tree(of: mutants)
    builder.emit(0..<builder.bytes.count, children: roots)
    text = String(decoding: builder.out, as: UTF8.self)
    alternatives = builder.alternatives
    groups = builder.groups
    copies = builder.copies
  }

  /// The offset in the original file that `offset` in `text` was copied from, if it was.
  public func originalOffset(of offset: Int) -> Int? {
    guard let copy = copies.first(where: { $0.output.contains(offset) }) else { return nil }
    return copy.original + offset - copy.output.lowerBound
  }

  /// The mutant whose alternative holds `offset`, if one does.
  public func mutant(at offset: Int) -> Int? {
    alternatives.first { $0.value.contains(offset) }?.key
  }

  /// The mutants of the innermost place whose schema holds `offset`.
  public func innermostGroup(at offset: Int) -> (range: Range<Int>, ids: [Int])? {
    groups.filter { $0.range.contains(offset) }.min { $0.range.count < $1.range.count }
  }

  /// The UTF-8 offset of a 1-based line and column.
  public static func offset(line: Int, column: Int, in text: String) -> Int {
    var currentLine = 1
    var offset = 0
    for byte in text.utf8 {
      if currentLine == line { break }
      offset += 1
      if byte == UInt8(ascii: "\n") { currentLine += 1 }
    }
    return offset + max(column - 1, 0)
  }

  /// One place of the file and the mutants there, with the places nested inside it.
  struct Node {
    var start: Int
    var end: Int
    var mutants: [Mutant]
    var children: [Node] = []

    static func tree(of mutants: [Mutant]) -> [Node] {
      var places: [Node] = []
      for mutant in mutants.sorted(by: { ($0.start, -$0.end, $0.id) < ($1.start, -$1.end, $1.id) })
      {
        if let last = places.last, last.start == mutant.start, last.end == mutant.end {
          places[places.count - 1].mutants.append(mutant)
        } else {
          places.append(Node(start: mutant.start, end: mutant.end, mutants: [mutant]))
        }
      }
      // Sorted by start, outer first: a stack nests them.
      var roots: [Node] = []
      var stack: [Node] = []
      func close() {
        let done = stack.removeLast()
        if stack.isEmpty {
          roots.append(done)
        } else {
          stack[stack.count - 1].children.append(done)
        }
      }
      for place in places {
        while let top = stack.last, !(place.start >= top.start && place.end <= top.end) {
          close()
        }
        stack.append(place)
      }
      while !stack.isEmpty { close() }
      return roots
    }
  }

  struct Builder {
    let bytes: [UInt8]
    let switchName: String
    var out: [UInt8] = []
    var alternatives: [Int: Range<Int>] = [:]
    var groups: [(range: Range<Int>, ids: [Int])] = []
    var copies: [(output: Range<Int>, original: Int)] = []

    init(bytes: [UInt8], switchName: String) {
      self.bytes = bytes
      self.switchName = switchName
    }

    mutating func append(_ text: String) { out.append(contentsOf: Array(text.utf8)) }

    mutating func copy(_ range: Range<Int>) {
      guard !range.isEmpty else { return }
      let at = out.count
      out.append(contentsOf: bytes[range])
      copies.append((at..<out.count, range.lowerBound))
    }

    mutating func emit(_ range: Range<Int>, children: [Node]) {
      var position = range.lowerBound
      for child in children where child.start >= position {
        copy(position..<child.start)
        emit(child)
        position = child.end
      }
      copy(position..<range.upperBound)
    }

    mutating func emit(_ node: Node) {
      let start = out.count
      if node.mutants.contains(where: \.isStatement) {
        for (index, mutant) in node.mutants.enumerated() {
          append(
            index == 0
              ? "if \(switchName)(\(mutant.id)) { " : " else if \(switchName)(\(mutant.id)) { ")
          alternative(mutant)
          append(" }")
        }
        append(" else { ")
        emit(node.start..<node.end, children: node.children)
        append(" }")
      } else {
        append("(")
        for mutant in node.mutants {
          append("\(switchName)(\(mutant.id)) ? ")
          alternative(mutant)
          append(" : ")
        }
        emit(node.start..<node.end, children: node.children)
        append(")")
      }
      groups.append((start..<out.count, node.mutants.map(\.id)))
    }

    mutating func alternative(_ mutant: Mutant) {
      let start = out.count
      append(mutant.mutatedText)
      // An empty alternative (a dropped statement) still owns its braces' inside.
      alternatives[mutant.id] = start..<max(out.count, start + 1)
    }
  }

  /// The file that defines the switch in the mutated module: the mutant to turn on is read once,
  /// from the environment.
  public static func switchFile(switchName: String, variable: String) -> String {
    """
    // Written by the mutation runner (Tools/Mutate) for one run; never committed.
    #if canImport(Glibc)
      import Glibc
    #elseif canImport(Musl)
      import Musl
    #elseif canImport(Darwin)
      import Darwin
    #endif

    private let mutateActiveMutant: Int = getenv("\(variable)").flatMap { Int(String(cString: $0)) } ?? 0

    /// Whether mutant `id` is the one this process runs.
    public func \(switchName)(_ id: Int) -> Bool { mutateActiveMutant == id }

    """
  }
}
