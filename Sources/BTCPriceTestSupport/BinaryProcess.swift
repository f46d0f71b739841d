import BTCPriceCore
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs the built `btc-price` binary for end-to-end tests and records what it prints, line by
/// line, with the moment each stdout line arrived.
///
/// `@unchecked Sendable` because Foundation's `Process` is not `Sendable`; it is configured in
/// `init` and afterwards only read, and everything the output handlers write is behind `output`.
public final class BinaryProcess: @unchecked Sendable {
  public struct Line: Sendable {
    public let text: String
    public let arrivedAt: ContinuousClock.Instant
  }

  /// What the process wrote so far.
  private struct Output {
    var stdoutLines: [Line] = []
    var stdoutPartial = Data()
    var stderrData = Data()
    var stdoutOpen = true
    var stderrOpen = true
  }

  private let process = Process()
  private let output = Locked(Output())

  /// The built `btc-price` executable (see ``BinaryLocator``).
  ///
  /// - Throws: ``BinaryLocator/NotFound``, naming every path tried.
  public static var binaryURL: URL {
    get throws { try BinaryLocator.live.locate() }
  }

  /// Starts the binary. `environment` replaces the inherited one except for `PATH`, `HOME` and
  /// `TZ`, so the host's own `BTC_PRICE_*` or API key variables never leak into a test.
  public init(_ arguments: [String], environment: [String: String] = [:]) throws {
    var env = ProcessInfo.processInfo.environment.filter {
      ["PATH", "HOME", "TZ"].contains($0.key)
    }
    env["LANG"] = "C.UTF-8"
    env.merge(environment) { _, new in new }
    process.executableURL = try Self.binaryURL
    process.arguments = arguments
    process.environment = env
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    stdout.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let data = handle.availableData
      guard let self else { return }
      if data.isEmpty {
        handle.readabilityHandler = nil
        self.output.withValue { $0.stdoutOpen = false }
      } else {
        self.receiveStdout(data)
      }
    }
    stderr.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let data = handle.availableData
      guard let self else { return }
      if data.isEmpty {
        handle.readabilityHandler = nil
        self.output.withValue { $0.stderrOpen = false }
      } else {
        self.output.withValue { $0.stderrData.append(data) }
      }
    }
    try process.run()
  }

  private func receiveStdout(_ data: Data) {
    let now = ContinuousClock.now
    output.withValue { output in
      output.stdoutPartial.append(data)
      while let newline = output.stdoutPartial.firstIndex(of: 0x0A) {
        let partial = output.stdoutPartial
        let line = String(decoding: partial[partial.startIndex..<newline], as: UTF8.self)
        output.stdoutLines.append(Line(text: line, arrivedAt: now))
        output.stdoutPartial = Data(partial[(newline + 1)...])
      }
    }
  }

  public var lines: [Line] { output.value.stdoutLines }
  public var stdoutText: [String] { lines.map(\.text) }
  public var stderrText: String { String(decoding: output.value.stderrData, as: UTF8.self) }

  /// Waits (polling, in real time) until `count` stdout lines arrived; false on timeout.
  @discardableResult
  public func waitForLines(_ count: Int, timeout: Duration = .seconds(10)) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while lines.count < count {
      guard ContinuousClock.now < deadline, process.isRunning else { return lines.count >= count }
      try? await Task.sleep(for: .milliseconds(5))
    }
    return true
  }

  public var isRunning: Bool { process.isRunning }

  public func send(_ signal: Int32) {
    kill(process.processIdentifier, signal)
  }

  /// Waits for the process to exit and its output to drain; kills it after `timeout`.
  /// Returns the exit status (128 + n when killed by signal n).
  public func waitForExit(timeout: Duration = .seconds(20)) async -> Int32 {
    let deadline = ContinuousClock.now + timeout
    while process.isRunning {
      if ContinuousClock.now >= deadline {
        process.terminate()
        kill(process.processIdentifier, SIGKILL)
      }
      try? await Task.sleep(for: .milliseconds(5))
    }
    let drained = ContinuousClock.now + .seconds(2)
    while output.withValue({ $0.stdoutOpen || $0.stderrOpen }), ContinuousClock.now < drained {
      try? await Task.sleep(for: .milliseconds(5))
    }
    return process.terminationReason == .uncaughtSignal
      ? 128 + process.terminationStatus : process.terminationStatus
  }
}
