import Foundation

/// A copy of the package where the mutants are compiled, so that the developer's tree and its
/// build are never touched. It lives at a fixed place (`.build/mutate/tree`) and is brought up
/// to date file by file: a file whose text did not change keeps its date, so its builds stay
/// incremental (the first one builds every dependency once).
struct Mirror {
  let source: URL
  let root: URL
  /// Top-level entries of the package that the copy leaves out.
  static let skipped: Set<String> = [".build", ".git", ".swiftpm", "Tools", "Benchmarks", "App"]

  func sync() throws {
    let manager = FileManager.default
    try manager.createDirectory(at: root, withIntermediateDirectories: true)
    var kept: Set<String> = []
    for entry in try manager.contentsOfDirectory(atPath: source.path)
    where !Self.skipped.contains(entry) && !entry.hasPrefix(".build") {
      try copy(entry, kept: &kept)
    }
    // Files gone from the package (and the switch and schemata of a last run) go from the copy.
    guard let walker = manager.enumerator(atPath: root.path) else { return }
    var stale: [String] = []
    while let relative = walker.nextObject() as? String {
      let top = relative.split(separator: "/").first.map(String.init) ?? relative
      if top == ".build" || Self.skipped.contains(top) {
        walker.skipDescendants()
        continue
      }
      var isDirectory: ObjCBool = false
      _ = manager.fileExists(
        atPath: root.appendingPathComponent(relative).path, isDirectory: &isDirectory)
      if !isDirectory.boolValue, !kept.contains(relative) { stale.append(relative) }
    }
    for relative in stale { try manager.removeItem(at: root.appendingPathComponent(relative)) }
  }

  private func copy(_ relative: String, kept: inout Set<String>) throws {
    let manager = FileManager.default
    let from = source.appendingPathComponent(relative)
    var isDirectory: ObjCBool = false
    guard manager.fileExists(atPath: from.path, isDirectory: &isDirectory) else { return }
    if isDirectory.boolValue {
      try manager.createDirectory(
        at: root.appendingPathComponent(relative), withIntermediateDirectories: true)
      for entry in try manager.contentsOfDirectory(atPath: from.path) {
        try copy(relative + "/" + entry, kept: &kept)
      }
    } else {
      try write(try Data(contentsOf: from), to: relative)
      kept.insert(relative)
    }
  }

  /// Writes `data` at `relative` in the copy unless it is there already (keeping its date).
  func write(_ data: Data, to relative: String) throws {
    let to = root.appendingPathComponent(relative)
    if let existing = try? Data(contentsOf: to), existing == data { return }
    try FileManager.default.createDirectory(
      at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: to)
  }
}
