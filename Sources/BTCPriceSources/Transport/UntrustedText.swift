/// Text from a server, made safe to put in an error message or a log line.
enum UntrustedText {
  /// At most 60 characters, on one line: control characters become spaces, and a longer text
  /// ends in `…`.
  static func excerpt(_ text: String) -> String {
    let oneLine = text.unicodeScalars.map {
      $0.properties.generalCategory == .control ? " " : Character($0)
    }
    let clipped = String(oneLine.prefix(60))
    return oneLine.count > 60 ? clipped + "…" : clipped
  }
}
