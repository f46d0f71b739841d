/// A setting that cannot be used, said with where it came from: the file and line, or the
/// environment variable. Values are quoted (shortened) to help fix them, except the API key's,
/// which never appears.
public struct SettingsError: Error, Equatable, CustomStringConvertible {
  public enum Origin: Equatable, Sendable {
    /// `line` is nil for a problem with the file as a whole (unreadable, not UTF-8).
    case file(path: String, line: Int?)
    case environment(variable: String)
    case commandLine(option: String)
  }

  public let origin: Origin
  /// The file key the problem is about, when it is about one.
  public let key: String?
  public let problem: String

  public init(origin: Origin, key: String?, problem: String) {
    self.origin = origin
    self.key = key
    self.problem = problem
  }

  /// `/home/ana/.config/btc-price/config:3: interval: must be …`,
  /// `BTC_PRICE_CURRENCY: unknown currency …`, or `--interval must be …`.
  public var description: String {
    if case .commandLine(let option) = origin, key == nil,
      problem.hasPrefix("must ") || problem.hasPrefix("needs ")
    {
      return "\(option) \(problem)"
    }
    var parts: [String] = []
    switch origin {
    case .file(let path, let line?): parts.append("\(path):\(line)")
    case .file(let path, nil): parts.append(path)
    case .environment(let variable): parts.append(variable)
    case .commandLine(let option): parts.append(option)
    }
    if let key { parts.append(key) }
    parts.append(problem)
    return parts.joined(separator: ": ")
  }
}
