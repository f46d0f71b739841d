/// What a thermostat does at a temperature, in whole degrees.
public struct Thermostat {
  public let target: Int
  public let unit = "°"

  public init(target: Int) { self.target = target }

  /// Heats below the target, not at it.
  public func heating(at degrees: Int) -> Bool { degrees < target }

  /// Cools above the target, not at it.
  public func cooling(at degrees: Int) -> Bool { degrees > target }

  /// Moves air whenever the temperature is off the target.
  public func ventilating(at degrees: Int) -> Bool { degrees != target }

  public func label(for degrees: Int) -> String { String(degrees) + unit }

  /// Rests exactly at the target.
  public func idle(at degrees: Int) -> Bool { degrees == target }
}
