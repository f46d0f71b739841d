import BTCPriceCore
import BTCPriceRuntime
import Foundation

/// The test value of ``PriceStore``, beside the interface's contract (``PriceStoreSpecs``, which
/// its own tests run against it, as they run against `FilePriceStore`): a quote in memory, every
/// save recorded, and failures that can be switched on, for a while or for a number of saves.
public final class InMemoryPriceStore: PriceStore {
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  private struct State {
    var stored: PriceQuote?
    var loadError: Failure?
    var saveError: Failure?
    /// Saves that still fail; nil while `saveError` holds until it is switched off.
    var failingSaves: Int?
    var saves: [PriceQuote] = []
  }

  private let state: Locked<State>

  /// - Parameters:
  ///   - loadError: every load throws this, until ``failLoads(_:)`` says otherwise.
  ///   - saveError: saves throw this: the first `failingSaves` of them, or all when nil.
  public init(
    stored: PriceQuote? = nil, loadError: String? = nil, saveError: String? = nil,
    failingSaves: Int? = nil
  ) {
    state = Locked(
      State(
        stored: stored, loadError: loadError.map(Failure.init),
        saveError: saveError.map(Failure.init), failingSaves: failingSaves))
  }

  /// Every quote saved, oldest first.
  public var savedQuotes: [PriceQuote] { state.value.saves }

  public func failLoads(_ reason: String?) {
    state.withValue { $0.loadError = reason.map(Failure.init) }
  }

  public func failSaves(_ reason: String?) {
    state.withValue {
      $0.saveError = reason.map(Failure.init)
      $0.failingSaves = nil
    }
  }

  public func load() throws -> PriceQuote? {
    try state.withValue { state in
      if let loadError = state.loadError { throw loadError }
      return state.stored
    }
  }

  public func save(_ quote: PriceQuote) throws {
    try state.withValue { state in
      if let saveError = state.saveError, state.failingSaves.map({ $0 > 0 }) ?? true {
        state.failingSaves = state.failingSaves.map { $0 - 1 }
        throw saveError
      }
      state.stored = quote
      state.saves.append(quote)
    }
  }
}
