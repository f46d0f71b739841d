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
