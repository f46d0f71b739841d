/// A value that must never be shown: it prints, dumps and interpolates as `<redacted>`.
public struct Secret: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible,
  CustomReflectable
{
  /// The value itself, for the one place that sends it (the request to its own host).
  public let value: String

  public init(_ value: String) {
    self.value = value
  }

  public var description: String { "<redacted>" }
  public var debugDescription: String { "<redacted>" }
  public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
