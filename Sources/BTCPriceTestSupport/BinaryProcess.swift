import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs the built `btc-price` binary for end-to-end tests and records what it prints, line by
/// line, with the moment each stdout line arrived.
public final class BinaryProcess: @unchecked Sendable {
  public struct Line: Sendable {
    public let text: String
    public let arrivedAt: ContinuousClock.Instant
  }

  private let process = Process()
  private let lock = NSLock()
  private var stdoutLines: [Line] = []
  private var stdoutPartial = Data()
  private var stderrData = Data()
  private var stdoutOpen = true
  private var stderrOpen = true

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
        self.lock.withLock { self.stdoutOpen = false }
      } else {
        self.receiveStdout(data)
      }
    }
    stderr.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let data = handle.availableData
      guard let self else { return }
      if data.isEmpty {
        handle.readabilityHandler = nil
        self.lock.withLock { self.stderrOpen = false }
      } else {
        self.lock.withLock { self.stderrData.append(data) }
      }
    }
    try process.run()
  }

  private func receiveStdout(_ data: Data) {
    let now = ContinuousClock.now
    lock.withLock {
      stdoutPartial.append(data)
      while let newline = stdoutPartial.firstIndex(of: 0x0A) {
        let line = String(
          decoding: stdoutPartial[stdoutPartial.startIndex..<newline], as: UTF8.self)
        stdoutLines.append(Line(text: line, arrivedAt: now))
        stdoutPartial = Data(stdoutPartial[(newline + 1)...])
      }
    }
  }

  public var lines: [Line] { lock.withLock { stdoutLines } }
  public var stdoutText: [String] { lines.map(\.text) }
  public var stderrText: String { lock.withLock { String(decoding: stderrData, as: UTF8.self) } }

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
    while lock.withLock({ stdoutOpen || stderrOpen }), ContinuousClock.now < drained {
      try? await Task.sleep(for: .milliseconds(5))
    }
    return process.terminationReason == .uncaughtSignal
      ? 128 + process.terminationStatus : process.terminationStatus
  }
}
