extension String {
  /// The string as a JSON string literal, quotes included: `"`, `\` and every control character
  /// escaped (U+2028 and U+2029 too, which JavaScript once took for line ends), so that what is
  /// written is always one line. The one JSON string writer: `--json`'s lines, Waybar's state,
  /// the cache file.
  package var jsonLiteral: String {
    // Most strings (a price, a timestamp, a source's id) are printable ASCII with nothing to
    // escape: quoted whole, without a walk of their scalars.
    if !utf8.contains(where: Self.mayNeedEscaping) {
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
        result += "\\u"
        result += String(repeating: "0", count: 4 - hex.count)
        result += hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  /// A byte of a scalar that may need escaping: a control character, `"`, `\`, DEL, or any byte
  /// of a non-ASCII scalar (U+2028 and U+2029 among them; the walk decides).
  private static func mayNeedEscaping(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == 0x22 || byte == 0x5C || byte >= 0x7F
  }
}
