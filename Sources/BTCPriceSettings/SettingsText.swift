/// The settings file's grammar: the part of YAML a file of `key: value` lines uses, read strictly.
///
/// - one `key: value` per line, keys at the start of the line, each key once;
/// - values plain (`interval: 5`), single-quoted (`'{price}'`, `''` for a quote) or double-quoted
///   (`"{price}\n"`, with YAML's escapes);
/// - a list in brackets (`sources: [kraken, coinbase]`) or as indented `- item` lines;
/// - comments from a `#` at the start of a line or after a space; `---` and `...` around it.
///
/// Anything else YAML allows (nested mappings, anchors, tags, block scalars, multi-line quotes)
/// is refused with its line, rather than read as something the user did not mean. A YAML library
/// would link all of Foundation and ICU's data into the command-line tool (docs/PERFORMANCE.md,
/// "Size"), which status bars start every few seconds.
struct SettingsText {
  enum Value: Equatable {
    case scalar(String)
    case list([String])
    /// `{…}` or indented `key: value` lines: structure a setting never has.
    case mapping
  }

  struct Entry: Equatable {
    let key: String
    let line: Int
    let value: Value
  }

  /// What is wrong with the text, and where; `line` is 1-based.
  struct SyntaxError: Error, Equatable {
    let line: Int
    let problem: String
  }

  /// The entries of `text`, in file order.
  static func parse(_ text: String) throws(SyntaxError) -> [Entry] {
    // Split by scalars: a Character holds `\r\n` whole, so a file saved on Windows had no `\n`
    // to split at and read as one line.
    var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map {
      let line = Substring($0)
      return line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
    }
    if let first = lines.first, first.hasPrefix("\u{FEFF}") { lines[0] = String(first.dropFirst()) }
    var entries: [Entry] = []
    var open: (key: String, line: Int, items: [String], nested: Bool)?
    func close() {
      guard let pending = open else { return }
      let value: Value =
        pending.nested ? .mapping : pending.items.isEmpty ? .scalar("") : .list(pending.items)
      entries.append(Entry(key: pending.key, line: pending.line, value: value))
      open = nil
    }
    for (index, rawLine) in lines.enumerated() {
      let number = index + 1
      let line = withoutComment(rawLine)
      if line.allSatisfy({ $0 == " " }) { continue }
      if line.first == "\t" || line.prefix(while: { $0 == " " || $0 == "\t" }).contains("\t") {
        throw SyntaxError(line: number, problem: "a tab before the text (indent with spaces)")
      }
      if line.first == " " {
        guard open != nil else {
          throw SyntaxError(line: number, problem: "an indented line outside a list")
        }
        let item = line.trimmingLeadingSpaces
        if item == "-" || item.hasPrefix("- ") {
          open?.items.append(try scalar(String(item.dropFirst()), line: number))
        } else {
          open?.nested = true
        }
        continue
      }
      close()
      if line == "---" || line == "..." { continue }
      if line == "-" || line.hasPrefix("- ") {
        throw SyntaxError(line: number, problem: "must hold `key: value` lines")
      }
      guard let colon = keyEnd(of: line) else {
        throw SyntaxError(line: number, problem: "must hold `key: value` lines")
      }
      let key = String(line[..<colon])
      if let first = entries.first(where: { $0.key == key }) {
        throw SyntaxError(
          line: number, problem: "\(key): is set twice (first on line \(first.line))")
      }
      let rest = line[line.index(after: colon)...].trimmingLeadingSpaces
      if rest.isEmpty {
        open = (key, number, [], false)
      } else {
        entries.append(Entry(key: key, line: number, value: try value(rest, line: number)))
      }
    }
    close()
    return entries
  }

  /// Where the key ends: the first `:` followed by a space or the end of the line; nil when the
  /// line has no such colon or the key is not a plain name.
  private static func keyEnd(of line: String) -> String.Index? {
    var index = line.startIndex
    while index < line.endIndex {
      let next = line.index(after: index)
      if line[index] == ":", next == line.endIndex || line[next] == " " {
        let key = line[..<index]
        let plain =
          !key.isEmpty && key.allSatisfy { $0.isLetter || $0.isNumber || "-_".contains($0) }
        return plain ? index : nil
      }
      index = next
    }
    return nil
  }

  private static func value(_ text: Substring, line: Int) throws(SyntaxError) -> Value {
    switch text.first {
    case "{":
      return .mapping
    case "[":
      guard text.last == "]" else {
        throw SyntaxError(line: line, problem: "a list in brackets must close on its line")
      }
      let inside = text.dropFirst().dropLast()
      if inside.allSatisfy({ $0 == " " }) { return .list([]) }
      var items: [String] = []
      for item in splitList(inside) {
        items.append(try scalar(String(item), line: line))
      }
      return .list(items)
    default:
      return .scalar(try scalar(String(text), line: line))
    }
  }

  /// A list's items, split at the commas outside quotes.
  private static func splitList(_ text: Substring) -> [Substring] {
    var items: [Substring] = []
    var start = text.startIndex
    forEachUnquoted(in: text) { index, character, _ in
      if character == "," {
        items.append(text[start..<index])
        start = text.index(after: index)
      }
      return true
    }
    items.append(text[start...])
    return items
  }

  /// One value: plain (trimmed), or quoted the YAML way.
  private static func scalar(_ text: String, line: Int) throws(SyntaxError) -> String {
    let trimmed = text.trimmingLeadingSpaces.trimmingTrailingSpaces
    guard let first = trimmed.first else { return "" }
    switch first {
    case "\"", "'":
      guard trimmed.count >= 2, trimmed.last == first else {
        throw SyntaxError(line: line, problem: "a quoted value must end with its quote on its line")
      }
      let inside = trimmed.dropFirst().dropLast()
      return first == "'"
        ? try singleQuoted(inside, line: line) : try doubleQuoted(inside, line: line)
    case "&", "*", "!", "|", ">", "%", "@", "`":
      throw SyntaxError(
        line: line,
        problem: "a value that starts with \(first) is more YAML than a setting takes; quote it")
    default:
      return trimmed
    }
  }

  private static func singleQuoted(_ text: Substring, line: Int) throws(SyntaxError) -> String {
    var result = ""
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      index = text.index(after: index)
      if character == "'" {
        guard index < text.endIndex, text[index] == "'" else {
          throw SyntaxError(line: line, problem: "a quote inside '…' is written ''")
        }
        index = text.index(after: index)
      }
      result.append(character)
    }
    return result
  }

  private static func doubleQuoted(_ text: Substring, line: Int) throws(SyntaxError) -> String {
    var result = ""
    var scalars = text.unicodeScalars[...]
    while let scalar = scalars.popFirst() {
      if scalar == "\"" {
        throw SyntaxError(line: line, problem: "a quote inside \"…\" is written \\\"")
      }
      guard scalar == "\\" else {
        result.unicodeScalars.append(scalar)
        continue
      }
      guard let escaped = scalars.popFirst() else {
        throw SyntaxError(line: line, problem: "a \\ at the end of a quoted value")
      }
      switch escaped {
      case "\"", "\\", "/": result.unicodeScalars.append(escaped)
      case "n": result += "\n"
      case "t": result += "\t"
      case "r": result += "\r"
      case "0": result += "\0"
      case "u":
        let hex = String(String.UnicodeScalarView(scalars.prefix(4)))
        guard hex.count == 4, let code = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(code)
        else { throw SyntaxError(line: line, problem: "\\u needs 4 hexadecimal digits") }
        result.unicodeScalars.append(decoded)
        scalars = scalars.dropFirst(4)
      default:
        throw SyntaxError(line: line, problem: "unknown escape \\\(escaped) in a quoted value")
      }
    }
    return result
  }

  /// The line without its comment: from a `#` at its start or after a space, outside quotes.
  private static func withoutComment(_ line: String) -> String {
    var end = line.endIndex
    forEachUnquoted(in: line) { index, character, previous in
      guard character == "#", previous == " " || previous == "\t" else { return true }
      end = index
      return false
    }
    return String(line[..<end]).trimmingTrailingSpaces
  }

  /// Calls `visit` with each character of `text` outside quotes, its index and the character
  /// before it, until `visit` returns false. As in YAML, a quote opens only where a value starts
  /// (at the start, or after a space, `:`, `[` or `,`): the `'` of `it's` is a letter. Inside
  /// double quotes a backslash escapes the next character.
  private static func forEachUnquoted<Text: StringProtocol>(
    in text: Text, _ visit: (Text.Index, Character, _ previous: Character) -> Bool
  ) {
    var quote: Character?
    var previous: Character = " "
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      if let open = quote {
        if character == "\\", open == "\"", text.index(after: index) < text.endIndex {
          index = text.index(after: index)
        } else if character == open {
          quote = nil
        }
      } else if character == "\"" || character == "'", " :[,".contains(previous) {
        quote = character
      } else if !visit(index, character, previous) {
        return
      }
      previous = text[index]
      index = text.index(after: index)
    }
  }
}

extension StringProtocol {
  fileprivate var trimmingLeadingSpaces: SubSequence {
    drop { $0 == " " }
  }

  fileprivate var trimmingTrailingSpaces: String {
    var text = String(self)
    while text.last == " " || text.last == "\t" { text.removeLast() }
    return text
  }
}
