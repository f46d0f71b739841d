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
    var command = arguments
    if let limit {
      command = ["timeout", "--kill-after=5", String(format: "%.0f", limit.rounded(.up))] + command
    }
    let started = Date()
    // The command runs in `directory` through sh (posix_spawn has no portable chdir) and env
    // (PATH finds it); stdout and stderr go to the file, stdin is /dev/null.
    let shell = ["/bin/sh", "-c", #"cd "$0" && exec /usr/bin/env "$@""#, directory.path] + command
    let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
      .map { "\($0.key)=\($0.value)" }
    guard let status = spawnAndWait(shell, environment: variables, output: output.path) else {
      return Result(status: 127, timedOut: false, output: "cannot start \(command)", seconds: 0)
    }
    let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
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

/// Starts `arguments` with posix_spawn(2), stdout and stderr to the file at `output` and stdin
/// from /dev/null, and waits for it with waitpid(2): its exit status, 128 + the signal that ended
/// it, or nil when it could not start. Foundation's `Process.waitUntilExit()` lost the end of two
/// children of a run (left as zombies, never reaped) and held the run forever.
func spawnAndWait(_ arguments: [String], environment: [String], output: String) -> Int32? {
  #if canImport(Darwin)
    var actions: posix_spawn_file_actions_t?
  #else
    var actions = posix_spawn_file_actions_t()
  #endif
  guard posix_spawn_file_actions_init(&actions) == 0 else { return nil }
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  posix_spawn_file_actions_adddup2(&actions, 1, 2)
  let argv = arguments.map { strdup($0) } + [nil]
  let envp = environment.map { strdup($0) } + [nil]
  defer { for pointer in argv + envp { free(pointer) } }
  var pid = pid_t()
  guard posix_spawn(&pid, arguments[0], &actions, nil, argv, envp) == 0 else { return nil }
  var status: Int32 = 0
  while waitpid(pid, &status, 0) == -1 {
    guard errno == EINTR else { return nil }
  }
  // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (they are macros).
  return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
}

/// Kills (SIGKILL) every process whose environment holds `name=value`, and returns how many.
///
/// A test run's limit ends its process group, but a test can start a binary in a group of its own
/// (the job-control and signal tests do), and a test that gives up on its child leaves it running
/// even when the run ends in time: a mutant that kept `btc-price --once` from ending left eight
/// idle processes behind (Nov 29). Every process a mutant's run starts inherits its
/// `MUTATE_ACTIVE_MUTANT`, and no other run's does, so this finds exactly that run's leftovers,
/// whatever group they are in, while another job runs beside it.
///
/// Linux only (it reads `/proc/<pid>/environ`); elsewhere it finds nothing. A process that has
/// ended but is not yet reaped has an empty environment and is not counted.
func killProcesses(withEnvironment name: String, equalTo value: String) -> Int {
  #if os(Linux)
    let wanted = Array("\(name)=\(value)".utf8)
    let ownPID = getpid()
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    var killed = 0
    for entry in entries {
      guard let pid = pid_t(entry), pid != ownPID,
        let environment = FileManager.default.contents(atPath: "/proc/\(entry)/environ")
      else { continue }
      let holds = environment.split(separator: 0, omittingEmptySubsequences: true)
        .contains { Array($0) == wanted }
      if holds, kill(pid, SIGKILL) == 0 { killed += 1 }
    }
    return killed
  #else
    return 0
  #endif
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
