import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `btc-price doctor`'s findings and their two renderings (text for people, `--json`), and its
/// exit status: 0 when at least one source gave a valid price, else 1. The stream and history
/// checks do not change the status: without a stream the ticks still get their price over REST,
/// and without a history only the chart and the 24-hour change are missing.
public struct DoctorReport: Sendable {
  /// A setting in effect: its name, value (secrets already redacted) and where it came from.
  public struct Setting: Equatable, Sendable, Encodable {
    public let name: String
    public let value: String
    public let origin: String

    public init(name: String, value: String, origin: String) {
      self.name = name
      self.value = value
      self.origin = origin
    }
  }

  /// A file the tool keeps (cache, state): where, how old, and whether it can be read.
  public struct File: Equatable, Sendable, Encodable {
    public let name: String
    public let path: String
    public let health: String
    public let ageSeconds: Int?

    public init(name: String, path: String, health: String, ageSeconds: Int?) {
      self.name = name
      self.path = path
      self.health = health
      self.ageSeconds = ageSeconds
    }
  }

  public let checks: [DoctorCheck]
  /// The streams the ticks read (the primary's, then the cross-check's), each opened once;
  /// empty when the currency has no stream.
  public let streams: [DoctorStreamCheck]
  /// The exchanges asked once for the day's candles, in the chain's order; nil when the price
  /// history is off (`--no-history`).
  public let history: [DoctorHistoryCheck]?
  public let settings: [Setting]
  public let files: [File]
  /// Limits in force from earlier runs, one line each.
  public let limits: [String]

  public init(
    checks: [DoctorCheck], streams: [DoctorStreamCheck] = [], history: [DoctorHistoryCheck]? = [],
    settings: [Setting], files: [File], limits: [String]
  ) {
    self.checks = checks
    self.streams = streams
    self.history = history
    self.settings = settings
    self.files = files
    self.limits = limits
  }

  public var exitStatus: Int32 { checks.contains(where: \.gavePrice) ? 0 : 1 }

  public var text: String {
    var lines: [String] = ["Sources, each asked once:"]
    for check in checks {
      lines += Self.block(
        check.source, check.url, check.route,
        steps: check.steps.map { ($0.step.rawValue, $0.state) }, verdict: check.verdict,
        latency: check.latency, advice: check.advice)
    }
    if !streams.isEmpty {
      lines.append("Streams the ticks read, each opened once:")
    }
    for stream in streams {
      lines += Self.block(
        stream.source, stream.url, stream.route,
        steps: stream.steps.map { ($0.step.rawValue, $0.state) }, verdict: stream.verdict,
        latency: stream.latency, advice: stream.advice)
    }
    switch history {
    case nil:
      lines.append("Price history: off (no-history)")
    case let checks? where checks.isEmpty:
      lines.append("Price history: no source of the chain has candles in this currency")
    case let checks?:
      lines.append("Price history (the day's candles), each asked once:")
      for check in checks {
        lines += Self.block(
          check.source, check.url, check.route, steps: [], verdict: check.verdict,
          latency: check.latency, advice: nil)
      }
    }
    lines.append("Settings in effect:")
    for setting in settings {
      lines.append("  \(setting.name): \(setting.value) (\(setting.origin))")
    }
    lines.append("Files:")
    for file in files {
      let age = file.ageSeconds.map { ", \(Duration.seconds($0).humanText) old" } ?? ""
      lines.append("  \(file.name): \(file.path): \(file.health)\(age)")
    }
    lines.append("Limits in force:")
    lines.append(contentsOf: limits.isEmpty ? ["  none"] : limits.map { "  \($0)" })
    let working = checks.filter(\.gavePrice).map(\.source)
    lines.append(
      working.isEmpty
        ? "Verdict: no source gave a price."
        : "Verdict: a price from \(working.joined(separator: ", ")).")
    return lines.joined(separator: "\n") + "\n"
  }

  /// One JSON object, keys sorted.
  public var json: String {
    struct Check: Encodable {
      let source, url, route, verdict: String
      let steps: [String: String]
      let latencyMilliseconds: Int?
      let price: String?
      let advice: String?
    }
    struct Stream: Encodable {
      let source, url, route, verdict: String
      let steps: [String: String]
      let latencyMilliseconds: Int?
      let advice: String?
    }
    struct History: Encodable {
      let source, url, route, verdict: String
      let candles: Int?
      let latencyMilliseconds: Int?
    }
    struct Document: Encodable {
      let ok: Bool
      let sources: [Check]
      let streams: [Stream]
      /// Absent when the history is off.
      let history: [History]?
      let settings: [Setting]
      let files: [File]
      let limits: [String]
    }
    let document = Document(
      ok: exitStatus == 0,
      sources: checks.map { check in
        var price: String?
        if case .price(let quote) = check.outcome { price = "\(quote.value)" }
        return Check(
          source: check.source, url: check.url, route: check.route, verdict: check.verdict,
          steps: Dictionary(
            uniqueKeysWithValues: check.steps.map { ($0.step.rawValue, $0.state.rawValue) }),
          latencyMilliseconds: check.latency.map(Self.milliseconds),
          price: price, advice: check.advice)
      },
      streams: streams.map { stream in
        Stream(
          source: stream.source, url: stream.url, route: stream.route, verdict: stream.verdict,
          steps: Dictionary(
            uniqueKeysWithValues: stream.steps.map { ($0.step.rawValue, $0.state.rawValue) }),
          latencyMilliseconds: stream.latency.map(Self.milliseconds), advice: stream.advice)
      },
      history: history?.map { check in
        var candles: Int?
        if case .history(let count, _, _) = check.outcome { candles = count }
        return History(
          source: check.source, url: check.url, route: check.route, verdict: check.verdict,
          candles: candles, latencyMilliseconds: check.latency.map(Self.milliseconds))
      },
      settings: settings, files: files, limits: limits)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data = (try? encoder.encode(document)) ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self) + "\n"
  }

  /// One checked connection, a source's request or a stream, in the same four lines: where it
  /// went and how, each step's state, the verdict with its time, the advice.
  private static func block(
    _ source: String, _ url: String, _ route: String,
    steps: [(name: String, state: DoctorCheck.StepState)], verdict: String, latency: Duration?,
    advice: String?
  ) -> [String] {
    let time = latency.map { " in \($0.millisecondsText)" } ?? ""
    var lines = ["  \(source) (\(url)), \(route)"]
    if !steps.isEmpty {
      lines.append("    " + steps.map { "\($0.name) \($0.state.rawValue)" }.joined(separator: ", "))
    }
    lines.append("    \(verdict)\(time)")
    if let advice { lines.append("    advice: \(advice)") }
    return lines
  }

  private static func milliseconds(_ duration: Duration) -> Int {
    Int(duration.wholeMilliseconds)
  }
}
