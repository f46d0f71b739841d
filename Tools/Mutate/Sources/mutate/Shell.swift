import Foundation

/// Runs commands; their output goes to a file (a pipe would block a chatty test run).
enum Shell {
  struct Result {
    var status: Int32
    var timedOut: Bool
    var output: String
    var seconds: Double
  }

  /// Runs `arguments` in `directory`. With a limit, coreutils' `timeout` ends the command's
  /// whole process group (the binaries and servers a test starts included).
  static func run(
    _ arguments: [String], in directory: URL, environment: [String: String] = [:],
    limit: Double? = nil, outputFile: URL? = nil
  ) -> Result {
    let output =
      outputFile
      ?? FileManager.default.temporaryDirectory.appendingPathComponent(
        "mutate-\(UUID().uuidString).log")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    defer { if outputFile == nil { try? FileManager.default.removeItem(at: output) } }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    var command = arguments
    if let limit {
      command = ["timeout", "--kill-after=5", String(format: "%.0f", limit.rounded(.up))] + command
    }
    process.arguments = command
    process.currentDirectoryURL = directory
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let handle = try? FileHandle(forWritingTo: output)
    process.standardOutput = handle
    process.standardError = handle
    process.standardInput = FileHandle.nullDevice
    let started = Date()
    do {
      try process.run()
      process.waitUntilExit()
    } catch {
      return Result(status: 127, timedOut: false, output: "\(error)", seconds: 0)
    }
    try? handle?.close()
    let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    let status = process.terminationStatus
    // timeout(1) exits 124 when it ended the command, 137 when it had to kill it.
    let timedOut = limit != nil && (status == 124 || status == 137)
    return Result(
      status: status, timedOut: timedOut, output: text,
      seconds: Date().timeIntervalSince(started))
  }

  /// Runs a command that must succeed, and returns what it printed.
  static func check(_ arguments: [String], in directory: URL) throws -> String {
    let result = run(arguments, in: directory)
    guard result.status == 0 else {
      throw Failure("`\(arguments.joined(separator: " "))` failed:\n\(result.output.suffix(3000))")
    }
    return result.output
  }
}

struct Failure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Runs `body` over `items` on `jobs` threads.
func inParallel<T: Sendable>(_ items: [T], jobs: Int, _ body: @escaping @Sendable (T) -> Void) {
  let next = Locked(0)
  DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, items.count))) { _ in
    while true {
      let index = next.take()
      guard index < items.count else { return }
      body(items[index])
    }
  }
}

final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func with<R>(_ body: (inout Value) -> R) -> R {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }

  var current: Value { with { $0 } }
}

extension Locked where Value == Int {
  func take() -> Int {
    with { value in
      defer { value += 1 }
      return value
    }
  }
}
