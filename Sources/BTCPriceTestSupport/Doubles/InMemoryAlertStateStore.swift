import BTCPriceCore
import BTCPriceRuntime

/// The test value of ``AlertStateStore``, beside the interface's contract
/// (``AlertStateStoreSpecs``, which its own tests run against it, as they run against
/// `FileAlertStateStore`): where each rule stands, in memory, every save recorded, and failures
/// that can be switched on.
public final class InMemoryAlertStateStore: AlertStateStore {
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  private struct State {
    var stored: [String: AlertArming]
    var saves: [[String: AlertArming]] = []
    var loadError: Failure?
    var saveError: Failure?
  }

  private let state: Locked<State>

  /// - Parameters:
  ///   - stored: what an earlier run left.
  ///   - loadError: every load throws this, until ``failLoads(_:)`` says otherwise.
  ///   - saveError: every save throws this, until ``failSaves(_:)`` says otherwise.
  public init(
    stored: [String: AlertArming] = [:], loadError: String? = nil, saveError: String? = nil
  ) {
    state = Locked(
      State(
        stored: stored, loadError: loadError.map(Failure.init),
        saveError: saveError.map(Failure.init)))
  }

  /// What the next run would load: what was given, or what the last save wrote.
  public var stored: [String: AlertArming] { state.value.stored }

  /// Every save that succeeded, in order.
  public var saves: [[String: AlertArming]] { state.value.saves }

  public func failLoads(_ reason: String?) {
    state.withValue { $0.loadError = reason.map(Failure.init) }
  }

  public func failSaves(_ reason: String?) {
    state.withValue { $0.saveError = reason.map(Failure.init) }
  }

  public func load() throws -> [String: AlertArming] {
    try state.withValue { state in
      if let loadError = state.loadError { throw loadError }
      return state.stored
    }
  }

  public func save(_ states: [String: AlertArming]) throws {
    try state.withValue { state in
      if let saveError = state.saveError { throw saveError }
      state.stored = states
      state.saves.append(states)
    }
  }
}
