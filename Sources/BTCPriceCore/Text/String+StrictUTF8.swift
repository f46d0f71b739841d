extension String {
  /// The text of `bytes` when they are valid UTF-8; nil when any byte is not.
  ///
  /// The standard library's `String(validating:as:)` where the system ships it (Apple: macOS 15,
  /// iOS 18; Linux: always), and before that the same answer from APIs every supported system
  /// has (``strictUTF8Fallback(_:)``), so the app on iOS 17 and the tool on macOS 14 refuse the
  /// same bytes as everywhere else.
  @inlinable
  package init?(strictUTF8 bytes: some Collection<UInt8>) {
    // ASCII is valid UTF-8 as it stands. The standard library's check is not specialized for
    // the caller's bytes and looks up generic metadata on every call, and this runs for every
    // member of every stream message (docs/PERFORMANCE.md, "What we own in a tick").
    if case .some(.some(let text)) = bytes.withContiguousStorageIfAvailable(Self.asciiText) {
      self = text
      return
    }
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
      guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
      self = text
    } else {
      guard let text = Self.strictUTF8Fallback(bytes) else { return nil }
      self = text
    }
  }

  /// The text of `bytes` when every one is ASCII (below 0x80); nil otherwise.
  @usableFromInline
  static func asciiText(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    let raw = UnsafeRawBufferPointer(bytes)
    // Eight bytes at a time: any byte from 0x80 up has its top bit set.
    var index = 0
    while index + 8 <= raw.count {
      guard raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
      else { return nil }
      index += 8
    }
    while index < raw.count {
      guard raw[index] < 0x80 else { return nil }
      index += 1
    }
    return String(decoding: bytes, as: UTF8.self)
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
