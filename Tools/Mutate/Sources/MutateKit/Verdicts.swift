import Foundation

/// What people decided about mutants, read from a file the runner never writes
/// (`Tools/Mutate/verdicts.txt`). One line each:
///
///     equivalent | Sources/BTCPriceCore/X.swift:42: < → <= | why no behaviour can change
///     behaviour  | Sources/BTCPriceCore/X.swift:42: < → <= | what a user would see break
///
/// The middle column is the mutant's key as the report prints it (file, line, change). An
/// equivalent mutant leaves the score's count; a behaviour line only words a survivor's report.
public struct Verdicts: Sendable {
  public struct Entry: Sendable {
    public var kind: String
    public var key: String
    public var text: String
    public var line: Int
  }

  public var entries: [Entry]
  public var problems: [String]

  public init(text: String) {
    var entries: [Entry] = []
    var problems: [String] = []
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = raw.trimmingCharacters(in: .whitespaces)
      if line.isEmpty || line.hasPrefix("#") { continue }
      // The change itself may hold " | " only in a dropped statement's text; the kind has none
      // and the reason comes last.
      guard let first = line.range(of: " | "),
        let last = line.range(of: " | ", options: .backwards),
        first.lowerBound != last.lowerBound
      else {
        problems.append("line \(index + 1): expected `kind | key | text`")
        continue
      }
      let kind = line[..<first.lowerBound].trimmingCharacters(in: .whitespaces)
      let key = line[first.upperBound..<last.lowerBound].trimmingCharacters(in: .whitespaces)
      let text = line[last.upperBound...].trimmingCharacters(in: .whitespaces)
      guard ["equivalent", "behaviour"].contains(kind), !text.isEmpty else {
        problems.append("line \(index + 1): the kind is `equivalent` or `behaviour`, with a text")
        continue
      }
      entries.append(Entry(kind: kind, key: key, text: text, line: index + 1))
    }
    self.entries = entries
    self.problems = problems
  }

  public func equivalence(of mutant: Mutant) -> String? {
    entries.first { $0.kind == "equivalent" && $0.key == mutant.key }?.text
  }

  public func behaviour(of mutant: Mutant) -> String? {
    entries.first { $0.kind == "behaviour" && $0.key == mutant.key }?.text
  }

  /// A mark found again at another line: its code moved.
  public struct Move: Sendable, Equatable {
    /// The mark's line in the verdicts file.
    public var line: Int
    public var from: String
    public var to: String
  }

  /// Marks whose code moved (lines added or removed above it) name no mutant of their file any
  /// more. Each is found again at the nearest line of the same file whose mutant makes the same
  /// change and has no mark of its own, when one line is nearest (two at the same distance: it
  /// stays where it was, naming nothing). The moved marks apply to this run only, and each
  /// move is returned so that the report lists it for people to make in the file, which the
  /// runner never writes.
  public func following(_ mutants: [Mutant]) -> (verdicts: Verdicts, moves: [Move]) {
    let keys = Set(mutants.map(\.key))
    var taken = Set(entries.map(\.key))
    var followed = self
    var moves: [Move] = []
    let byFile = Dictionary(grouping: mutants, by: \.file)
    // What a key names after its file and line: the change, and a twin's ordinal.
    func change(of mutant: Mutant) -> Substring {
      mutant.key.dropFirst("\(mutant.file):\(mutant.line): ".count)
    }
    for index in followed.entries.indices where !keys.contains(followed.entries[index].key) {
      let entry = followed.entries[index]
      guard let file = byFile.keys.first(where: { entry.key.hasPrefix($0 + ":") }) else {
        continue
      }
      let rest = entry.key.dropFirst(file.count + 1)
      guard let colon = rest.firstIndex(of: ":"), let line = Int(rest[..<colon]) else { continue }
      let wanted = rest[rest.index(after: colon)...].drop { $0 == " " }
      let nearest = (byFile[file] ?? [])
        .filter { !taken.contains($0.key) && change(of: $0) == wanted }
        .map { (distance: abs($0.line - line), mutant: $0) }
        .sorted { $0.distance < $1.distance }
      guard let found = nearest.first, nearest.dropFirst().first?.distance != found.distance
      else { continue }
      taken.insert(found.mutant.key)
      followed.entries[index].key = found.mutant.key
      moves.append(Move(line: entry.line, from: entry.key, to: found.mutant.key))
    }
    return (followed, moves)
  }

  /// Entries for files of this run that name no mutant any more (the code moved or changed):
  /// said in the report, so that a verdict never outlives its mutant silently.
  public func stale(against mutants: [Mutant]) -> [Entry] {
    let keys = Set(mutants.map(\.key))
    let files = Set(mutants.map(\.file))
    return entries.filter { entry in
      !keys.contains(entry.key) && files.contains { entry.key.hasPrefix($0 + ":") }
    }
  }
}
