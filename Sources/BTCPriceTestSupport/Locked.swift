import Foundation

/// A value shared with concurrent code under a lock, for spies that record synchronously.
public final class Locked<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value

  public init(_ value: Value) {
    stored = value
  }

  public var value: Value {
    lock.withLock { stored }
  }

  public func withValue<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    try lock.withLock { try body(&stored) }
  }
}

extension Locked {
  /// Appends to an array value.
  public func append<Element>(_ element: Element) where Value == [Element] {
    withValue { $0.append(element) }
  }
}
