import BTCPriceCore
import BTCPriceFeature
import BTCPriceRuntime
import BTCPriceTestSupport
import Testing

/// The background-task assertion around the save on the way to the background.
@Suite("Keep the app alive while saving", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
@MainActor
struct KeepTheAppAliveWhileSavingUseCaseTests {
  @Test func job_runsInsideTheAssertionWhichEndsOnceWhenTheJobEnds() async {
    let spy = BackgroundTaskSpy()
    let events = spy.events

    await BackgroundTaskAssertion.perform("save", hooks: spy.hooks) {
      events.append("job")
    }.value

    #expect(events.value == ["begin save", "job", "end 1"])
  }

  @Test func expiry_endsTheAssertionAtOnceAndTheJobsEndDoesNotEndItAgain() async {
    let spy = BackgroundTaskSpy()
    let (release, releaser) = AsyncStream.makeStream(of: Void.self)
    let running = BackgroundTaskAssertion.perform("save", hooks: spy.hooks) {
      for await _ in release { break }
    }

    spy.expire()
    #expect(spy.events.value == ["begin save", "end 1"])

    releaser.yield()
    await running.value
    #expect(spy.events.value == ["begin save", "end 1"])
  }

  @Test func refusedAssertion_stillRunsTheJobAndEndsNothing() async {
    let spy = BackgroundTaskSpy(refuses: true)
    let events = spy.events

    await BackgroundTaskAssertion.perform("save", hooks: spy.hooks) {
      events.append("job")
    }.value

    #expect(events.value == ["begin save", "job"])
  }
}

/// Records begin and end calls as `UIApplication` would receive them, and can expire the task.
@MainActor
final class BackgroundTaskSpy {
  let events = Locked<[String]>([])
  private let refuses: Bool
  private var expiry: (@MainActor @Sendable () -> Void)?

  init(refuses: Bool = false) {
    self.refuses = refuses
  }

  var hooks: BackgroundTaskHooks {
    BackgroundTaskHooks(
      begin: { [self] name, expired in
        events.append("begin \(name)")
        expiry = expired
        return refuses ? nil : 1
      },
      end: { [events] identifier in events.append("end \(identifier)") })
  }

  func expire() { expiry?() }
}
