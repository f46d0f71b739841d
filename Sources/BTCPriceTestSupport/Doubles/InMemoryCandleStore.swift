import BTCPriceCore
import BTCPriceRuntime
import Foundation

/// The test value of ``CandleStore``, beside the interface's contract (``CandleStoreSpecs``, which
/// its own tests run against it, as they run against `FileCandleStore`): each range's history in
/// memory, every save recorded, and failures that can be switched on.
public final class InMemoryCandleStore: CandleStore {
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  private struct State {
    var stored: [ChartRange: CandleSeries] = [:]
    var loadError: Failure?
    var saveError: Failure?
    var loads = 0
    var saves: [(ChartRange, CandleSeries)] = []
  }

  private let state: Locked<State>

  public init(
    stored: [ChartRange: CandleSeries] = [:], loadError: String? = nil, saveError: String? = nil
  ) {
    state = Locked(
      State(
        stored: stored, loadError: loadError.map(Failure.init),
        saveError: saveError.map(Failure.init)))
  }

  /// How many loads were asked for, of any range.
  public var loadCount: Int { state.value.loads }

  /// Every history saved, oldest first, with its range.
  public var saved: [(range: ChartRange, series: CandleSeries)] {
    state.value.saves.map { (range: $0.0, series: $0.1) }
  }

  public func failLoads(_ reason: String?) {
    state.withValue { $0.loadError = reason.map(Failure.init) }
  }

  public func failSaves(_ reason: String?) {
    state.withValue { $0.saveError = reason.map(Failure.init) }
  }

  public func load(_ range: ChartRange) throws -> CandleSeries? {
    try state.withValue { state in
      state.loads += 1
      if let loadError = state.loadError { throw loadError }
      return state.stored[range]
    }
  }

  public func save(_ series: CandleSeries, for range: ChartRange) throws {
    try state.withValue { state in
      if let saveError = state.saveError { throw saveError }
      state.stored[range] = series
      state.saves.append((range, series))
    }
  }
}
