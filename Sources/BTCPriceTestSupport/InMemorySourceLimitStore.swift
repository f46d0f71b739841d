import BTCPriceCore

/// The test value of ``SourceLimitStore``: the state file's limits in memory. A load reads what
/// was given or last saved (or throws the load error given), and every save is recorded.
public final class InMemorySourceLimitStore: SourceLimitStore {
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  private struct State {
    var stored: [SourceLimit]
    var saves: [[SourceLimit]] = []
  }

  private let state: Locked<State>
  private let loadError: Failure?

  /// - Parameters:
  ///   - stored: what an earlier run left.
  ///   - loadError: every load throws this (a state file that cannot be read).
  public init(stored: [SourceLimit] = [], loadError: String? = nil) {
    state = Locked(State(stored: stored))
    self.loadError = loadError.map(Failure.init)
  }

  /// What the next run would load: what was given, or what the last save wrote.
  public var stored: [SourceLimit] { state.value.stored }

  /// Every save, in order.
  public var saves: [[SourceLimit]] { state.value.saves }

  public func load() throws -> [SourceLimit] {
    if let loadError { throw loadError }
    return state.value.stored
  }

  public func save(_ limits: [SourceLimit]) throws {
    state.withValue { state in
      state.stored = limits
      state.saves.append(limits)
    }
  }
}
