/// The system's way of keeping an app that went to the background running until a short job
/// (the save of the last price) ends. On iOS the app passes
/// `UIApplication.beginBackgroundTask(withName:expirationHandler:)` and `endBackgroundTask(_:)`;
/// tests pass spies; ``none`` (the default) does nothing, for platforms without such a thing.
public struct BackgroundTaskHooks: Sendable {
  /// Asks for background time under `name` and returns the assertion's identifier, or nil when
  /// the system refuses. `expired` runs on the main actor shortly before the time runs out; the
  /// assertion must then end at once.
  public var begin:
    @MainActor @Sendable (
      _ name: String, _ expired: @escaping @MainActor @Sendable () -> Void
    ) -> Int?
  /// Ends the assertion `begin` returned.
  public var end: @MainActor @Sendable (_ identifier: Int) -> Void

  public init(
    begin:
      @escaping @MainActor @Sendable (
        _ name: String, _ expired: @escaping @MainActor @Sendable () -> Void
      ) -> Int?,
    end: @escaping @MainActor @Sendable (_ identifier: Int) -> Void
  ) {
    self.begin = begin
    self.end = end
  }

  /// No assertion: the job runs as long as the process happens to.
  public static let none = BackgroundTaskHooks(begin: { _, _ in nil }, end: { _ in })
}
