import NIOConcurrencyHelpers

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Starts the commands alerts run (`--on-alert`, `--notify`'s `notify-send` or `osascript`)
/// without ever waiting for them on the tick.
///
/// Each command is spawned in a process group of its own, with default signal dispositions (the
/// tool ignores SIGINT, SIGTERM and SIGPIPE for its own handling, and a child would inherit
/// that), stdin from /dev/null and stdout on our stderr, so it can neither read the terminal nor
/// mix into `--json`. A watcher reaps it (no zombie) and, past ``timeout``, ends its group:
/// SIGTERM, then SIGKILL a second later. At most ``maximumRunning`` run at once; beyond that an
/// alert's command is skipped with a warning rather than queued without bound. A failure (it
/// cannot start, exits non-zero, times out) is one warning, never an exit.
public final class AlertCommandRunner: Sendable {
  /// How long a command may run: enough for a webhook `curl` or a notification, short enough
  /// that a hung one is noticed.
  public static let standardTimeout = Duration.seconds(10)
  /// Alerts come a few at a time at most; more running at once means they hang.
  public static let maximumRunning = 4
  /// How often the watcher looks at a running command: reaps within this after it exits.
  private static let pollInterval = Duration.milliseconds(20)

  private let timeout: Duration
  private let warn: @Sendable (String) -> Void
  /// Process groups running now, by pid.
  private let running = NIOLockedValueBox<Set<pid_t>>([])

  public init(timeout: Duration = standardTimeout, warn: @escaping @Sendable (String) -> Void) {
    self.timeout = timeout
    self.warn = warn
  }

  /// Starts `arguments` (a path or a name looked up in `PATH`) with `environment` added to ours;
  /// returns at once. `label` names it in warnings (`--on-alert`).
  public func start(_ arguments: [String], adding environment: [String: String], label: String) {
    let admitted = running.withLockedValue { $0.count < Self.maximumRunning }
    guard admitted else {
      warn("\(label): \(Self.maximumRunning) commands still running; skipped this alert")
      return
    }
    let pid: pid_t
    switch Self.spawn(arguments, environment: environment) {
    case .success(let spawned): pid = spawned
    case .failure(let reason):
      warn("\(label): cannot run \(arguments.first ?? ""): \(reason)")
      return
    }
    running.withLockedValue { _ = $0.insert(pid) }
    let timeout = timeout
    let warn = warn
    let running = running
    Task.detached {
      let outcome = await Self.watch(pid, timeout: timeout)
      running.withLockedValue { _ = $0.remove(pid) }
      if let outcome { warn("\(label): \(outcome)") }
    }
  }

  /// For the way out: gives the commands still running up to `grace` to finish (a `--once` run
  /// that fired must not cut its own notification short), then ends their groups, so nothing is
  /// left behind.
  public func finish(within grace: Duration) async {
    let clock = ContinuousClock()
    let deadline = clock.now + grace
    while !running.withLockedValue({ $0.isEmpty }), clock.now < deadline {
      try? await Task.sleep(for: Self.pollInterval)
    }
    for pid in running.withLockedValue({ $0 }) {
      kill(-pid, SIGTERM)
    }
  }

  /// Reaps `pid`, ending its group past `timeout`; a failure's description, or nil on success.
  private static func watch(_ pid: pid_t, timeout: Duration) async -> String? {
    let clock = ContinuousClock()
    let started = clock.now
    var terminatedAt: ContinuousClock.Instant?
    while true {
      var status: Int32 = 0
      let reaped = waitpid(pid, &status, WNOHANG)
      if reaped == pid || (reaped < 0 && errno == ECHILD) {
        if terminatedAt != nil { return "timed out after \(timeout.components.seconds) s" }
        return describe(status: status)
      }
      if terminatedAt == nil, clock.now - started > timeout {
        kill(-pid, SIGTERM)
        terminatedAt = clock.now
      } else if let terminatedAt, clock.now - terminatedAt > .seconds(1) {
        kill(-pid, SIGKILL)
      }
      try? await Task.sleep(for: pollInterval)
    }
  }

  private static func describe(status: Int32) -> String? {
    let signal = status & 0x7F
    if signal == 0 {
      let code = (status >> 8) & 0xFF
      return code == 0 ? nil : "exited with status \(code)"
    }
    return "killed by signal \(signal)"
  }

  private enum Spawned {
    case success(pid_t)
    case failure(String)
  }

  private static func spawn(_ arguments: [String], environment: [String: String]) -> Spawned {
    guard let program = arguments.first else { return .failure("no command") }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaults = sigset_t()
    sigfillset(&defaults)
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, 2, 1)

    var merged = ProcessInfo.processInfo.environment
    merged.merge(environment) { _, alert in alert }
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv + envp { free(pointer) }
    }
    var pid: pid_t = 0
    let result = posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
    guard result == 0 else { return .failure(String(cString: strerror(result))) }
    return .success(pid)
  }
}
