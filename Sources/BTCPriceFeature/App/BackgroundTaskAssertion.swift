/// Runs a job under a background-task assertion and ends the assertion exactly once: when the job
/// is done, or when the system says time is up, whichever comes first.
///
/// iOS suspends an app within seconds of it leaving the screen; a save still running then is cut
/// off, and the newest price is lost. With the assertion the system waits for the save (up to its
/// limit), and ending it promptly is what keeps the app from being killed for overstaying.
@MainActor
public final class BackgroundTaskAssertion {
  private let hooks: BackgroundTaskHooks
  private var identifier: Int?

  private init(hooks: BackgroundTaskHooks) {
    self.hooks = hooks
  }

  /// Begins the assertion, runs `job`, and ends the assertion. The returned task ends with the
  /// job.
  @discardableResult
  public static func perform(
    _ name: String, hooks: BackgroundTaskHooks,
    _ job: @escaping @Sendable () async -> Void
  ) -> Task<Void, Never> {
    let assertion = BackgroundTaskAssertion(hooks: hooks)
    assertion.identifier = hooks.begin(name) { [weak assertion] in assertion?.end() }
    return Task { @MainActor in
      await job()
      assertion.end()
    }
  }

  private func end() {
    guard let identifier else { return }
    self.identifier = nil
    hooks.end(identifier)
  }
}
