import BTCPriceCore
import BTCPriceRuntime
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
  /// The XDG folders of this run, removed with it.
  private let home = FileManager.default.temporaryDirectory.appendingPathComponent(
    "btc-price-e2e-home-\(UUID().uuidString)")

  deinit {
    try? FileManager.default.removeItem(at: home)
  }

  /// The process's id, to watch it from outside (`/proc/<pid>`).
  public var processIdentifier: Int32 { process.processIdentifier }

  /// The built `btc-price` executable (see ``BinaryLocator``).
  ///
  /// - Throws: ``BinaryLocator/NotFound``, naming every path tried.
  public static var binaryURL: URL {
    get throws { try BinaryLocator.live.locate() }
  }

  /// What every run of the binary gets unless the test sets it: `BTC_PRICE_STREAM=false` and
  /// `BTC_PRICE_HISTORY=false`.
  /// Streams are on by default, and a test that points the sources' REST URLs at a fake exchange
  /// would otherwise also open the real exchanges' streams: unreachable here (or, where they are
  /// reachable, real prices in a test of the fake's), and its first tick would wait
  /// `--primary-timeout` for a trade that never comes. Stream tests opt in with
  /// `BTC_PRICE_STREAM=true` or `--stream` and point the streams at a ``FakeStreamServer``.
  /// `BTC_PRICE_HISTORY=false` likewise: the price history's candles would be asked of the real
  /// exchanges, and beside every run's price requests; history tests opt in with `--history`
  /// and the fake's `candlesURLArguments`.
  public static let quietEnvironment = ["BTC_PRICE_STREAM": "false", "BTC_PRICE_HISTORY": "false"]

  /// Starts the binary. `environment` replaces the inherited one except for `PATH`, `HOME` and
  /// `TZ`, so the host's own `BTC_PRICE_*` or API key variables never leak into a test; the XDG
  /// folders (cache, state, config) point into a fresh temporary folder unless `environment` sets
  /// them, so no test reads or writes the real ones; streams are off unless `environment` turns
  /// them on (``quietEnvironment``).
  ///
  /// - Parameter stdout: where stdout goes instead of being recorded (a pipe nobody reads,
  ///   `/dev/full`).
  public convenience init(
    _ arguments: [String], environment: [String: String] = [:], stdout: FileHandle? = nil
  ) throws {
    try self.init(executable: try Self.binaryURL, arguments, environment, stdout: stdout)
  }

  /// Runs `script` with bash, with `$BTC_PRICE` set to the binary and `arguments` as `"$@"`: for
  /// pipelines as people type them (`"$BTC_PRICE" "$@" | head -3`).
  public static func shell(
    _ script: String, arguments: [String] = [], environment: [String: String] = [:]
  ) throws -> BinaryProcess {
    var environment = environment
    environment["BTC_PRICE"] = try binaryURL.path
    return try BinaryProcess(
      executable: URL(fileURLWithPath: "/bin/bash"), ["-c", script, "bash"] + arguments,
      environment, stdout: nil)
  }

  private init(
    executable: URL, _ arguments: [String], _ environment: [String: String], stdout: FileHandle?
  ) throws {
    // Also kept: the mutation runner's switch (the binary runs the same mutant as its test) and
    // where coverage is written (scripts/mutate learns which tests run which lines).
    var env = ProcessInfo.processInfo.environment.filter {
      ["PATH", "HOME", "TZ", "MUTATE_ACTIVE_MUTANT", "LLVM_PROFILE_FILE"].contains($0.key)
    }
    env["LANG"] = "C.UTF-8"
    env.merge(Self.quietEnvironment) { _, quiet in quiet }
    for (variable, folder) in [
      ("XDG_CACHE_HOME", "cache"), ("XDG_STATE_HOME", "state"), ("XDG_CONFIG_HOME", "config"),
    ] {
      env[variable] = home.appendingPathComponent(folder).path
    }
    env.merge(environment) { _, new in new }
    process.executableURL = executable
    process.arguments = arguments
    process.environment = env
    let captured = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout ?? captured
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    if stdout != nil { output.withValue { $0.stdoutOpen = false } }
    Self.read(captured.fileHandleForReading) { [weak self] data in
      guard let self else { return }
      if let data {
        self.receiveStdout(data)
      } else {
        self.output.withValue { $0.stdoutOpen = false }
      }
    }
    Self.read(stderr.fileHandleForReading) { [weak self] data in
      guard let self else { return }
      if let data {
        self.output.withValue { $0.stderrData.append(data) }
      } else {
        self.output.withValue { $0.stderrOpen = false }
      }
    }
    try process.run()
  }

  /// Reads `handle` to its end on a thread of its own, handing each chunk to `receive` and then
  /// nil. Not `readabilityHandler`: its dispatch source could outlive the pipe when a test ended
  /// with its process still writing, and libdispatch then crashed the whole test process on the
  /// closed descriptor (seen here under load). The thread keeps the handle open until the end of
  /// file, which comes when the last process holding the pipe's other end exits.
  private static func read(
    _ handle: FileHandle, _ receive: @escaping @Sendable (Data?) -> Void
  ) {
    let thread = Thread {
      // One read(2) a chunk, so each line is stamped when it arrives (FileHandle's reads wait
      // for a whole count or the end).
      var buffer = [UInt8](repeating: 0, count: 64 * 1024)
      while true {
        let count = buffer.withUnsafeMutableBytes {
          Foundation.read(handle.fileDescriptor, $0.baseAddress, $0.count)
        }
        if count > 0 {
          receive(Data(buffer[..<count]))
        } else if count < 0, errno == EINTR {
          continue
        } else {
          break
        }
      }
      withExtendedLifetime(handle) {}
      receive(nil)
    }
    thread.start()
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
        // A shell's children first (a binary that never ends in a pipeline), then the process.
        Self.killChildren(of: process.processIdentifier)
        process.terminate()
        kill(process.processIdentifier, SIGKILL)
      }
      try? await Task.sleep(for: .milliseconds(5))
    }
    // The end of file follows the exit at once, unless a loaded machine holds the readers back.
    let drained = ContinuousClock.now + .seconds(10)
    while output.withValue({ $0.stdoutOpen || $0.stderrOpen }), ContinuousClock.now < drained {
      try? await Task.sleep(for: .milliseconds(5))
    }
    return process.terminationReason == .uncaughtSignal
      ? 128 + process.terminationStatus : process.terminationStatus
  }

  /// Kills the direct children of `pid`, found with `pkill -P` (procps on Linux, macOS's own).
  private static func killChildren(of pid: Int32) {
    let pkill = Process()
    pkill.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    pkill.arguments = ["pkill", "-KILL", "-P", "\(pid)"]
    pkill.standardOutput = FileHandle.nullDevice
    pkill.standardError = FileHandle.nullDevice
    try? pkill.run()
    pkill.waitUntilExit()
  }
}
