import Foundation

/// The package's targets and which depends on which, from `swift package dump-package`.
public struct PackageGraph: Sendable {
  public struct Target: Sendable {
    public var name: String
    public var type: String
    public var dependencies: [String]
    public var path: String?

    /// Where its sources are, relative to the package's root.
    public var directory: String {
      path ?? (type == "test" ? "Tests/\(name)" : "Sources/\(name)")
    }
  }

  public var targets: [String: Target]

  public init(targets: [Target]) {
    self.targets = Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
  }

  public init(dumpPackage json: Data) throws {
    let object = try JSONSerialization.jsonObject(with: json) as? [String: Any] ?? [:]
    let targets = (object["targets"] as? [[String: Any]] ?? []).map { target in
      let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap {
        dependency -> String? in
        // A target names another as {"byName": [name, condition]} or {"target": [name, ...]};
        // {"product": [...]} is another package's.
        let named = dependency["byName"] ?? dependency["target"]
        return (named as? [Any])?.first as? String
      }
      return Target(
        name: target["name"] as? String ?? "", type: target["type"] as? String ?? "regular",
        dependencies: dependencies, path: target["path"] as? String)
    }
    self.init(targets: targets)
  }

  /// Every target that `name` depends on, directly or not, and itself.
  public func closure(of name: String) -> Set<String> {
    var seen: Set<String> = []
    var next = [name]
    while let current = next.popLast() {
      guard seen.insert(current).inserted, let target = targets[current] else { continue }
      next += target.dependencies.filter { targets[$0] != nil }
    }
    return seen
  }

  /// The test targets that can see `module`: only their tests can kill its mutants.
  public func testTargets(seeing module: String) -> [String] {
    targets.values.filter { $0.type == "test" && closure(of: $0.name).contains(module) }
      .map(\.name).sorted()
  }

  /// Targets only tests depend on (shared fixtures, fakes): part of "the tests" of a module.
  public var testSupport: [String] {
    targets.values.filter { target in
      let users = targets.values.filter { $0.dependencies.contains(target.name) }
      return target.type == "regular" && !users.isEmpty && users.allSatisfy { $0.type == "test" }
    }.map(\.name).sorted()
  }

  /// The target whose sources hold `file` (a path relative to the root).
  public func target(holding file: String) -> Target? {
    targets.values.filter { file.hasPrefix($0.directory + "/") }
      .max { $0.directory.count < $1.directory.count }
  }
}
