import BTCPriceCore
import BTCPriceRuntime

/// The test value of ``SourceLimitStore``, beside the interface's contract
/// (``SourceLimitStoreSpecs``, which its own tests run against it, as they run against
/// `FileSourceLimitStore`): the state file's limits in memory, every save recorded, and failures
/// that can be switched on.
public final class InMemorySourceLimitStore: SourceLimitStore {
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  private struct State {
    var stored: [SourceLimit]
    var saves: [[SourceLimit]] = []
    var loadError: Failure?
    var saveError: Failure?
  }

  private let state: Locked<State>

  /// - Parameters:
  ///   - stored: what an earlier run left.
  ///   - loadError: every load throws this (a state file that cannot be read), until
  ///     ``failLoads(_:)`` says otherwise.
  public init(stored: [SourceLimit] = [], loadError: String? = nil) {
    state = Locked(State(stored: stored, loadError: loadError.map(Failure.init)))
  }

  /// What the next run would load: what was given, or what the last save wrote.
  public var stored: [SourceLimit] { state.value.stored }

  /// Every save that succeeded, in order.
  public var saves: [[SourceLimit]] { state.value.saves }

  public func failLoads(_ reason: String?) {
    state.withValue { $0.loadError = reason.map(Failure.init) }
  }

  public func failSaves(_ reason: String?) {
    state.withValue { $0.saveError = reason.map(Failure.init) }
  }

  public func load() throws -> [SourceLimit] {
    try state.withValue { state in
      if let loadError = state.loadError { throw loadError }
      return state.stored
    }
  }

  public func save(_ limits: [SourceLimit]) throws {
    try state.withValue { state in
      if let saveError = state.saveError { throw saveError }
      state.stored = limits
      state.saves.append(limits)
    }
  }
}
