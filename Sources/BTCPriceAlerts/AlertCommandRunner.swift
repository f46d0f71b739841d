import NIOConcurrencyHelpers
import Subprocess

/// Starts the commands alerts run (`--on-alert`, `--notify`'s `notify-send` or `osascript`)
/// without ever waiting for them on the tick.
///
/// Each command runs through swift-subprocess (which spawns it the same way on Linux and Darwin)
/// in a process group of its own, with default signal dispositions and an empty signal mask (the
/// tool ignores SIGINT, SIGTERM and SIGPIPE for its own handling, and a child would inherit that;
/// swift-subprocess resets them in every child), stdin from /dev/null and stdout on our stderr,
/// so it can neither read the terminal nor mix into `--json`. swift-subprocess reaps it (no
/// zombie) and, past ``timeout``, ends its group: SIGTERM, then SIGKILL ``killAfter`` later. At
/// most ``maximumRunning`` run at once; beyond that an alert's command is skipped with a warning
/// rather than queued without bound. A failure (it cannot start, exits non-zero, times out) is
/// one warning, never an exit.
///
/// The spawn never runs on the caller's executor: the terminal's tick runs on the SwiftNIO event
/// loop that also reads the price streams, and a `fork`/`exec` there would hold their pongs. Each
/// command starts from a detached task on the global concurrent executor.
public final class AlertCommandRunner: Sendable {
  /// How long a command may run: enough for a webhook `curl` or a notification, short enough
  /// that a hung one is noticed.
  public static let standardTimeout = Duration.seconds(10)
  /// Alerts come a few at a time at most; more running at once means they hang.
  public static let maximumRunning = 4
  /// How long a command told to end (SIGTERM to its group) has before SIGKILL.
  static let killAfter = Duration.seconds(1)

  /// One command: what to run, and what the environment adds.
  struct Command: Sendable {
    let arguments: [String]
    let environment: [String: String]
  }

  /// How a command ended.
  enum Outcome: Sendable, Equatable {
    case exited(Int32)
    case signaled(Int32)
    case timedOut
    /// Ended by ``finish(within:)`` on the way out: no warning.
    case ended
    case cannotStart(String)
  }

  private let timeout: Duration
  private let warn: @Sendable (String) -> Void
  private let launch: @Sendable (Command, Duration) async -> Outcome
  /// The commands admitted and not yet reaped, by a number of our own; the task once it exists.
  private let running = NIOLockedValueBox(Running())

  private struct Running {
    var next = 0
    var tasks: [Int: Task<Void, Never>?] = [:]
  }

  public convenience init(
    timeout: Duration = standardTimeout, warn: @escaping @Sendable (String) -> Void
  ) {
    self.init(timeout: timeout, warn: warn, launch: AlertCommandRunner.run)
  }

  /// - Parameter launch: runs one command to its end within a timeout (tests stand in for
  ///   swift-subprocess here).
  init(
    timeout: Duration = standardTimeout, warn: @escaping @Sendable (String) -> Void,
    launch: @escaping @Sendable (Command, Duration) async -> Outcome
  ) {
    self.timeout = timeout
    self.warn = warn
    self.launch = launch
  }

  /// Starts `arguments` (a path, or a name looked up in `PATH`) with `environment` added to ours;
  /// returns at once. `label` names it in warnings (`--on-alert`).
  public func start(_ arguments: [String], adding environment: [String: String], label: String) {
    let slot = running.withLockedValue { running -> Int? in
      guard running.tasks.count < Self.maximumRunning else { return nil }
      running.next += 1
      running.tasks[running.next] = .some(nil)
      return running.next
    }
    guard let slot else {
      warn("\(label): \(Self.maximumRunning) commands still running; skipped this alert")
      return
    }
    let command = Command(arguments: arguments, environment: environment)
    let (timeout, warn, launch, running) = (timeout, warn, launch, running)
    let operation: @Sendable () async -> Void = {
      let outcome = await launch(command, timeout)
      // Said before the command leaves `running`: ``finish(within:)`` returns once that is
      // empty, and the way out must not end before a failed command's warning is out.
      if let problem = Self.describe(outcome, timeout: timeout, program: arguments.first ?? "") {
        warn("\(label): \(problem)")
      }
      running.withLockedValue { _ = $0.tasks.removeValue(forKey: slot) }
    }
    let task: Task<Void, Never>
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
      // Said outright, though an unstructured task does not inherit the caller's task-executor
      // preference anyway (RunAlertCommandsTests): never the event loop's executor.
      task = Task.detached(executorPreference: globalConcurrentExecutor, operation: operation)
    } else {
      // No task executors before macOS 15: the caller's loop cannot be preferred at all.
      task = Task.detached(operation: operation)
    }
    running.withLockedValue { running in
      if running.tasks[slot] != nil { running.tasks[slot] = task }
    }
  }

  /// For the way out: gives the commands still running up to `grace` to finish (a `--once` run
  /// that fired must not cut its own notification short), then ends their groups (SIGTERM, and
  /// SIGKILL ``killAfter`` later for one that ignores it) and waits until they are reaped, so
  /// nothing is left behind.
  public func finish(within grace: Duration) async {
    let clock = ContinuousClock()
    let deadline = clock.now + grace
    while !running.withLockedValue({ $0.tasks.isEmpty }), clock.now < deadline {
      try? await Task.sleep(for: .milliseconds(20))
    }
    let tasks = running.withLockedValue { $0.tasks.values.compactMap { $0 } }
    for task in tasks { task.cancel() }
    for task in tasks { await task.value }
  }

  /// The warning for an outcome; nil for a command that succeeded or that we ended.
  static func describe(_ outcome: Outcome, timeout: Duration, program: String) -> String? {
    switch outcome {
    case .exited(0), .ended: nil
    case .exited(let code): "exited with status \(code)"
    case .signaled(let signal): "killed by signal \(signal)"
    case .timedOut: "timed out after \(timeout.components.seconds) s"
    case .cannotStart(let reason): "cannot run \(program): \(reason)"
    }
  }

  /// A process group of its own (setpgid(0, 0) in the child), which the teardown signals whole:
  /// SIGTERM, then SIGKILL ``killAfter`` later.
  private static var platformOptions: PlatformOptions {
    var options = PlatformOptions()
    options.processGroupID = 0
    options.teardownSequence = [
      .send(signal: .terminate, toProcessGroup: true, allowedDurationToNextStep: killAfter)
    ]
    return options
  }

  /// Runs `command` with swift-subprocess to its end: reaped, and its group ended past
  /// `timeout` (or when the caller's task is cancelled).
  @Sendable static func run(_ command: Command, timeout: Duration) async -> Outcome {
    guard let program = command.arguments.first else { return .cannotStart("no command") }
    let options = platformOptions
    let overrides = Dictionary(
      uniqueKeysWithValues: command.environment.compactMap { key, value in
        Environment.Key(rawValue: key).map { ($0, String?.some(value)) }
      })
    let executable: Executable = program.contains("/") ? .path(.init(program)) : .name(program)
    return await withTaskGroup(of: Outcome.self) { group in
      group.addTask {
        do {
          let result = try await Subprocess.run(
            executable, arguments: Arguments(Array(command.arguments.dropFirst())),
            environment: .inherit.updating(overrides), platformOptions: options,
            input: .none, output: .currentStandardError, error: .currentStandardError)
          switch result.terminationStatus {
          case .exited(let code): return .exited(code)
          case .signaled(let signal): return .signaled(signal)
          }
        } catch {
          return .cannotStart(error.underlyingErrorText ?? "\(error)")
        }
      }
      group.addTask {
        do {
          try await Task.sleep(for: timeout)
          return .timedOut
        } catch {
          return .ended
        }
      }
      let first = await group.next() ?? .ended
      // Either the command ended (the timer goes), or the timer did (cancelling the run makes
      // swift-subprocess end the group: SIGTERM, SIGKILL a second later) and we wait for the
      // reaping; or we were cancelled ourselves (the way out), which ends it the same way.
      group.cancelAll()
      let second = await group.next() ?? .ended
      switch (first, second) {
      case (.timedOut, _): return Task.isCancelled ? .ended : .timedOut
      case (.ended, _): return .ended
      case (_, _) where Task.isCancelled: return .ended
      default: return first
      }
    }
  }
}

extension Error {
  /// The errno swift-subprocess saw, in words, when it has one.
  fileprivate var underlyingErrorText: String? {
    (self as? SubprocessError)?.underlyingError.map { "\($0)" }
  }
}
