extension String {
  /// The string as a JSON string literal, quotes included: `"`, `\` and every control character
  /// escaped (U+2028 and U+2029 too, which JavaScript once took for line ends), so that what is
  /// written is always one line. The one JSON string writer: `--json`'s lines, Waybar's state,
  /// the cache file.
  package var jsonLiteral: String {
    // Most strings (a price, a timestamp, a source's id) need nothing escaped: quoted whole,
    // without a walk of their scalars.
    if utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C && $0 != 0x7F && $0 < 0x80 }) {
      return "\"" + self + "\""
    }
    var result = "\""
    for scalar in unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _
      where scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\u{2028}"
        || scalar == "\u{2029}":
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}
