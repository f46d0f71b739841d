import BTCPriceCore
import BTCPriceNIO
import BTCPriceRuntime
import BTCPriceTestSupport
import Foundation
import NIOCore
import NIOPosix
import Testing

@testable import BTCPriceAlerts

/// The alert commands' runner (`--on-alert`, `--notify`) in this process: where each command
/// starts, the limits it runs under, and what is said when one fails. The end-to-end tests in
/// AlertsEndToEndTests show the same through the binary.
@Suite("Run alert commands", .serialized, .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct RunAlertCommandsTests {
  /// The terminal's tick runs on the event loop that reads the streams: a spawn there would
  /// hold their pongs, so the command starts from a task on another executor.
  @Test func start_fromATickOnTheEventLoop_launchesOffThatLoop() async throws {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let loop = group.next()
    let launchedOnLoop = Locked<[Bool]>([])
    let sut = AlertCommandRunner(
      warn: { _ in },
      launch: { _, _ in
        launchedOnLoop.append(loop.inEventLoop)
        return .exited(0)
      })

    try await loop.startTask {
      #expect(loop.inEventLoop, "the tick itself runs on the loop")
      sut.start(["true"], adding: [:], label: "--on-alert")
    }.value
    await sut.finish(within: .seconds(2))

    #expect(launchedOnLoop.value == [false])
    try await group.shutdownGracefully()
  }

  @Test func aFifthCommandWhileFourRun_isSkippedWithAWarning() async throws {
    let warnings = Locked<[String]>([])
    let started = Locked(0)
    let sut = AlertCommandRunner(
      warn: { warnings.append($0) },
      launch: { _, _ in
        started.withValue { $0 += 1 }
        // Runs until the way out cancels it.
        while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(10)) }
        return .ended
      })

    for _ in 0..<5 { sut.start(["sleep", "30"], adding: [:], label: "--on-alert") }
    await eventually(within: .seconds(5)) { started.value == 4 }
    await sut.finish(within: .zero)

    #expect(started.value == AlertCommandRunner.maximumRunning)
    #expect(warnings.value == ["--on-alert: 4 commands still running; skipped this alert"])
  }

  @Test(
    arguments: [
      (AlertCommandRunner.Outcome.exited(0), nil),
      (.ended, nil),
      (.exited(3), "--on-alert: exited with status 3"),
      (.signaled(9), "--on-alert: killed by signal 9"),
      (.timedOut, "--on-alert: timed out after 10 s"),
      (
        .cannotStart("No such file or directory"),
        "--on-alert: cannot run x: No such file or directory"
      ),
    ] as [(AlertCommandRunner.Outcome, String?)])
  func eachEnding_isAtMostOneWarning(outcome: AlertCommandRunner.Outcome, warning: String?)
    async throws
  {
    let warnings = Locked<[String]>([])
    let sut = AlertCommandRunner(warn: { warnings.append($0) }, launch: { _, _ in outcome })

    sut.start(["x"], adding: [:], label: "--on-alert")
    await sut.finish(within: .seconds(2))

    #expect(warnings.value == (warning.map { [$0] } ?? []))
  }

  /// A `--once` run whose command failed ends only after the warning is out, even when
  /// writing it is slow (stderr on a busy terminal): the way out waits for the warning, not
  /// only for the command. The slow write is a real 200 ms block, which makes the old race
  /// (the command counted as gone before its warning) certain rather than rare.
  @Test func aSlowWarning_isOutBeforeTheWayOutEnds() async throws {
    let warnings = Locked<[String]>([])
    let sut = AlertCommandRunner(
      warn: { warning in
        Thread.sleep(forTimeInterval: 0.2)
        warnings.append(warning)
      },
      launch: { _, _ in .exited(1) })

    sut.start(["x"], adding: [:], label: "--on-alert")
    await sut.finish(within: .seconds(2))

    #expect(warnings.value == ["--on-alert: exited with status 1"])
  }

  // MARK: - Through swift-subprocess, with real processes

  /// Its own process group (pgid = its pid), stdin from /dev/null, the environment it was
  /// given added to ours, and reaped once it ends.
  @Test func aCommand_getsItsOwnGroupDevNullAndItsVariables_andIsReaped() async throws {
    try await withFolder { folder in
      let out = folder.appendingPathComponent("out").path
      let sut = AlertCommandRunner(warn: { Issue.record("warned: \($0)") })

      sut.start(
        [
          "/bin/sh", "-c",
          #"""
          stdin=tty; [ /dev/stdin -ef /dev/null ] && stdin=null
          echo "$$ $(ps -o pgid= -p $$ | tr -d ' ') $stdin $BTC_PRICE_ALERT_RULE" > "$OUT"
          """#,
        ], adding: ["OUT": out, "BTC_PRICE_ALERT_RULE": "above:100000"], label: "--on-alert")
      await sut.finish(within: .seconds(20))

      let fields = try String(contentsOfFile: out, encoding: .utf8).split(separator: " ")
        .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
      #expect(fields.count == 4, "\(fields)")
      #expect(fields.count > 1 && fields[0] == fields[1], "process group \(fields)")
      #expect(fields.dropFirst(2) == ["null", "above:100000"])
      let pid = try #require(pid_t(fields[0]))
      var status: Int32 = 0
      #expect(waitpid(pid, &status, WNOHANG) == -1 && errno == ECHILD, "not reaped")
    }
  }

  /// Past its timeout the whole group ends (the shell and what it started), with one warning.
  @Test func aCommandPastItsTimeout_isEndedWithItsGroup() async throws {
    try await withFolder { folder in
      let child = folder.appendingPathComponent("child").path
      let warnings = Locked<[String]>([])
      let sut = AlertCommandRunner(timeout: .seconds(1), warn: { warnings.append($0) })

      sut.start(
        ["/bin/sh", "-c", #"sleep 30 & echo $! > "$CHILD"; wait"#], adding: ["CHILD": child],
        label: "--on-alert")
      await eventually(within: .seconds(10)) { warnings.value.count == 1 }

      #expect(warnings.value == ["--on-alert: timed out after 1 s"])
      let sleeper = try #require(
        pid_t(
          try String(contentsOfFile: child, encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
      await eventually(within: .seconds(10), { kill(sleeper, 0) != 0 }, "the group's sleep lives")
      await sut.finish(within: .zero)
    }
  }

  /// A command ended frees its place: a fifth one after four that ended runs, one at a time.
  @Test func commandsThatEnded_leaveRoomForMore() async throws {
    let warnings = Locked<[String]>([])
    let started = Locked(0)
    let sut = AlertCommandRunner(
      warn: { warnings.append($0) },
      launch: { _, _ in
        started.withValue { $0 += 1 }
        return .exited(0)
      })

    for count in 1...(AlertCommandRunner.maximumRunning + 2) {
      sut.start(["true"], adding: [:], label: "--on-alert")
      // It waits for the command's task whatever the grace (as in every test here whose
      // command is a closure): a short one only keeps a runner that never frees a place from
      // taking the whole grace a command, past the mutation runner's limit for the suite.
      await sut.finish(within: .seconds(2))
      #expect(started.value == count)
    }

    #expect(warnings.value.isEmpty)
  }

  /// `--on-alert 'notify.sh'` is a path only with a slash; a bare name is looked up in `PATH`,
  /// as a shell does.
  @Test func aCommandNamedWithoutASlash_isFoundInPATH() async {
    let outcome = await AlertCommandRunner.run(
      .init(arguments: ["sh", "-c", "exit 3"], environment: [:]), timeout: .seconds(10))

    #expect(outcome == .exited(3))
  }

  @Test func aProgramThatDoesNotExist_isOneWarningNamingIt() async throws {
    let warnings = Locked<[String]>([])
    let sut = AlertCommandRunner(warn: { warnings.append($0) })

    sut.start(["/nonexistent/notify"], adding: [:], label: "--notify")
    await sut.finish(within: .seconds(2))

    #expect(warnings.value.count == 1)
    #expect(warnings.value.first?.hasPrefix("--notify: cannot run /nonexistent/notify: ") == true)
  }

  private func withFolder(_ body: (URL) async throws -> Void) async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("alert-commands-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try await body(folder)
  }
}
