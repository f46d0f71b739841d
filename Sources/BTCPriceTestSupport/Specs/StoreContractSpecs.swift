import Testing

/// The contract every store of the tool keeps, whatever it holds (the last price, the sources'
/// limits, where the alert rules stand): nothing before the first save, exactly what was saved
/// after it, the last save wins, what cannot be read throws, and a save that fails throws and
/// leaves what was there. ``PriceStoreSpecs``, ``SourceLimitStoreSpecs``,
/// ``AlertStateStoreSpecs`` and ``CandleStoreSpecs`` give it for their interface, with its
/// samples; every implementation's tests run it.
///
/// Each check takes a fresh, empty store; the implementation-specific ones also take the action
/// that puts that store's backing into the state under test.
public struct StoreContractSpecs<Value: Equatable> {
  let load: () throws -> Value
  let save: (Value) throws -> Void
  /// What `load` gives when nothing was saved.
  let empty: Value
  let sample: Value
  /// Another value, to replace `sample`.
  let newer: Value

  init(
    load: @escaping () throws -> Value, save: @escaping (Value) throws -> Void, empty: Value,
    sample: Value, newer: Value
  ) {
    self.load = load
    self.save = save
    self.empty = empty
    self.sample = sample
    self.newer = newer
  }

  public func loadDeliversNothingWhenEmpty(sourceLocation: SourceLocation = #_sourceLocation) throws
  {
    #expect(try load() == empty, sourceLocation: sourceLocation)
    #expect(
      try load() == empty, "loading twice has no side effects", sourceLocation: sourceLocation)
  }

  public func loadDeliversSavedValueExactly(sourceLocation: SourceLocation = #_sourceLocation)
    throws
  {
    try save(sample)

    #expect(try load() == sample, sourceLocation: sourceLocation)
  }

  public func saveReplacesPreviousValue(sourceLocation: SourceLocation = #_sourceLocation) throws {
    try save(sample)
    try save(newer)

    #expect(try load() == newer, sourceLocation: sourceLocation)
  }

  public func loadThrowsOnCorruptData(
    corrupt: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try corrupt()

    #expect(throws: (any Error).self, sourceLocation: sourceLocation) { try load() }
  }

  public func saveThrowsAndKeepsPreviousValueWhenWritingFails(
    breakWriting: () throws -> Void, restoreWriting: () throws -> Void,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try save(sample)
    try breakWriting()

    #expect(throws: (any Error).self, sourceLocation: sourceLocation) { try save(newer) }
    try restoreWriting()
    #expect(try load() == sample, sourceLocation: sourceLocation)
  }
}
