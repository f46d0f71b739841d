import BTCPriceCore
import BTCPriceFeature
import BTCPriceRuntime
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

@testable import BTCPriceAlerts

/// The alerts' deliveries besides the views: `--on-alert`, `--notify` and `serve`'s webhook, as
/// the one delivery the tick loop hands each tick's alerts.
@Suite("Deliver alerts", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct DeliverAlertsUseCaseTests {
  let presenter = PricePresenter(
    timestamps: TimestampFormatter(precision: .seconds, timeZone: TimeZone(identifier: "UTC")!))

  @Test func eachAlert_startsTheCommandWithItsVariables_andTheNotificationWithItsWords() throws {
    let launcher = LauncherSpy()
    let sut = makeSUT(
      command: "echo $BTC_PRICE_ALERT_TEXT", notifier: DesktopNotifier(program: "/bin/notify"),
      launcher: launcher)

    sut.deliver(try alerts(("above:100000", .up, "100500"), ("move:2%/15m", .up, "100500")))

    let started = launcher.started
    #expect(started.map(\.label) == ["--on-alert", "--notify", "--on-alert", "--notify"])
    #expect(started[0].arguments == ["/bin/sh", "-c", "echo $BTC_PRICE_ALERT_TEXT"])
    #expect(started[0].environment["BTC_PRICE_ALERT_RULE"] == "above:100000")
    #expect(started[0].environment["BTC_PRICE_ALERT_TEXT"] == "BTC above $100,000.00: $100,500.00")
    #expect(started[2].environment["BTC_PRICE_ALERT_RULE"] == "move:2%/15m")
    #expect(started[1].environment.isEmpty)
    #expect(
      started[1].arguments
        == DesktopNotifier(program: "/bin/notify").arguments(
          title: "BTC above $100,000.00", body: "$100,500.00 at Nov 22, 14:03:05 from Binance"))
  }

  @Test func withoutACommandOrANotifier_nothingStarts() throws {
    let launcher = LauncherSpy()
    let sut = makeSUT(launcher: launcher)

    sut.deliver(try alerts(("below:90000", .down, "89000")))

    #expect(launcher.started.isEmpty)
  }

  @Test func finishing_givesTheCommandsTheirGrace() async {
    let launcher = LauncherSpy()

    await makeSUT(launcher: launcher).finish(within: .seconds(2))

    #expect(launcher.graces == [.seconds(2)])
  }

  @Test func notify_withoutTheNotifierInPATH_saysWhatToInstall_andNotifiesNothing() {
    let empty = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    let warnings = Locked<[String]>([])

    _ = AlertDeliveries.terminal(
      command: nil, notify: true, environment: ["PATH": empty.path],
      warn: { warnings.append($0) })

    #if canImport(Darwin)
      #expect(
        warnings.value == ["--notify: osascript not found; osascript comes with macOS; check PATH"])
    #else
      #expect(
        warnings.value == [
          "--notify: notify-send not found; install libnotify-bin (Debian, Ubuntu) or libnotify "
            + "(Fedora, Arch) for notify-send"
        ])
    #endif
  }

  @Test func theNotifier_isTheFirstExecutableOfItsNameInPATH() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    let bin = folder.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let name = DesktopNotifier.Kind.here.name
    let notReadable = folder.appendingPathComponent(name)
    try Data().write(to: notReadable)
    let program = bin.appendingPathComponent(name)
    try Data("#!/bin/sh\n".utf8).write(to: program)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program.path)

    let found = try DesktopNotifier.find(environment: ["PATH": "\(folder.path):\(bin.path)"]).get()

    #expect(found.program == program.path, "a file that is not executable is passed over")
  }

  /// Both command lines, whichever system this is: only which one runs differs
  /// (`DesktopNotifier.Kind.here`).
  @Test func theNotification_showsTitleAndBody() {
    #expect(
      DesktopNotifier(kind: .osascript, program: "/usr/bin/n").arguments(
        title: "BTC above $1.00", body: #"say "hi" \ there"#)
        == [
          "/usr/bin/n", "-e",
          #"display notification "say \"hi\" \\ there" with title "BTC above $1.00""#,
        ])
    #expect(
      DesktopNotifier(kind: .notifySend, program: "/usr/bin/n").arguments(
        title: "BTC above $1.00", body: #"say "hi" \ there"#)
        == ["/usr/bin/n", "--app-name=btc-price", "BTC above $1.00", #"say "hi" \ there"#])
  }

  // MARK: - Helpers

  private func makeSUT(
    command: String? = nil, notifier: DesktopNotifier? = nil, launcher: LauncherSpy
  ) -> AlertDeliveries {
    AlertDeliveries(
      command: command, notifier: notifier, launcher: launcher, webhook: nil, client: nil,
      clock: SteppedTestClock(), warn: { _ in }, onWebhookOutcome: { _ in })
  }

  func alerts(_ fired: (rule: String, direction: PriceAlert.Direction, price: String)...) throws
    -> AlertViewState
  {
    let alerts = try fired.map { rule, direction, price in
      PriceAlert(
        rule: try AlertRule.parse(rule), direction: direction, quote: quote(price),
        reference: Decimal(100_000))
    }
    return try #require(presenter.presentAlerts(alerts))
  }
}

/// Records the commands it is asked to start.
final class LauncherSpy: AlertCommandLauncher {
  struct Start {
    let arguments: [String]
    let environment: [String: String]
    let label: String
  }

  private let recorded = Locked<(started: [Start], graces: [Duration])>(([], []))

  var started: [Start] { recorded.value.started }
  var graces: [Duration] { recorded.value.graces }

  func start(_ arguments: [String], adding environment: [String: String], label: String) {
    recorded.withValue {
      $0.started.append(Start(arguments: arguments, environment: environment, label: label))
    }
  }

  func finish(within grace: Duration) async {
    recorded.withValue { $0.graces.append(grace) }
  }
}
