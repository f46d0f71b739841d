extension String {
  /// The text of `bytes` when they are valid UTF-8; nil when any byte is not.
  ///
  /// The standard library's `String(validating:as:)` where the system ships it (Apple: macOS 15,
  /// iOS 18; Linux: always), and before that the same answer from APIs every supported system
  /// has (``strictUTF8Fallback(_:)``), so the app on iOS 17 and the tool on macOS 14 refuse the
  /// same bytes as everywhere else.
  @inlinable
  package init?(strictUTF8 bytes: some Collection<UInt8>) {
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
      guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
      self = text
    } else {
      guard let text = Self.strictUTF8Fallback(bytes) else { return nil }
      self = text
    }
  }

  /// `String(validating:as: UTF8.self)` without it: decoding repairs every ill-formed sequence
  /// with U+FFFD, which changes the bytes, while valid UTF-8 decodes to exactly the bytes it came
  /// from. So the bytes are valid exactly when the decoded text has the same ones.
  @inlinable
  package static func strictUTF8Fallback(_ bytes: some Collection<UInt8>) -> String? {
    let text = String(decoding: bytes, as: UTF8.self)
    return text.utf8.elementsEqual(bytes) ? text : nil
  }
}
