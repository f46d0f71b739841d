// fuzz-modules: BTCPriceRuntime BTCPriceCore BTCPriceSources BTCPriceFeature BTCPriceSettings
import BTCPriceCore

// For `SettingsText`, the grammar's own layer: the modules are built with testing enabled.
@testable import BTCPriceSettings

/// The settings file, read by `SettingsFile.parse(_:home:)` through `SettingsText.parse` (its
/// YAML subset); the input is the file's text.
///
/// The product has no writer of settings files: `Settings.description` is a display (values
/// unquoted, the API key redacted; `format: {price}` in it would read back as a mapping) and
/// `doctor` adds each value's origin. So the round trip goes through a writer of this target's
/// own, written from the grammar's documentation: every value double-quoted with YAML's
/// escapes, every list in brackets.
///
/// Properties of a text that parses:
/// - lines as this oracle counts them (split at each line feed byte, a carriage return before it
///   and a byte order mark at the start left out): each entry is one line that starts with its
///   key and a colon, and each line that is not blank, a comment, indented, `---` or `...` is
///   one entry, in order, each key once;
/// - a plain value is written on its line as it is read; a single-quoted one with its quotes
///   doubled; a double-quoted one without a backslash as it is read;
/// - written back by the canonical writer, the text reads as the same entries, and
///   `SettingsFile` reads both texts as the same `Settings` (or refuses both).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard let text = inputText(data, size), let entries = try? SettingsText.parse(text) else {
    return 0
  }
  let lines = oracleLines(text)
  let expected = lines.indices.filter { isEntryLine(lines[$0]) }.map { $0 + 1 }
  guard entries.map(\.line) == expected else {
    violated(
      "\(String(reflecting: text)): entries on lines \(entries.map(\.line)), but the lines "
        + "that hold a key are \(expected)")
  }
  guard Set(entries.map(\.key)).count == entries.count else {
    violated("\(String(reflecting: text)): a key read twice")
  }
  for entry in entries {
    let line = lines[entry.line - 1]
    guard line.hasPrefix(entry.key + ":") else {
      violated("\(String(reflecting: text)): key \(entry.key) is not at the start of \(line)")
    }
    if case .scalar(let value) = entry.value, !isWritten(value, on: line) {
      violated(
        "\(String(reflecting: text)): \(entry.key)'s value \(String(reflecting: value)) is not "
          + "written on its line")
    }
  }
  guard entries.allSatisfy(\.isWritable) else { return 0 }
  let written = canonicalText(entries)
  guard let again = try? SettingsText.parse(written) else {
    violated(
      "\(String(reflecting: text)) written back as \(String(reflecting: written)) does not parse")
  }
  guard again.map(\.key) == entries.map(\.key), again.map(\.value) == entries.map(\.value) else {
    violated(
      "\(String(reflecting: text)) written back as \(String(reflecting: written)) reads as "
        + "\(again), not \(entries)")
  }
  let file = SettingsFile(path: "/fuzz/config")
  let settings = Result { () throws(SettingsError) in try file.parse(text, home: "/home/fuzz") }
  let settingsAgain = Result { () throws(SettingsError) in
    try file.parse(written, home: "/home/fuzz")
  }
  switch (settings, settingsAgain) {
  case (.success(let first), .success(let second)) where first == second: break
  case (.failure, .failure): break
  default:
    violated(
      "\(String(reflecting: text)) reads as \(settings), written back as \(settingsAgain)")
  }
  return 0
}

/// The text's lines, split at each line feed, as a file's bytes are: a carriage return before
/// one (a file saved on Windows) and a byte order mark at the start are no part of a line.
func oracleLines(_ text: String) -> [String] {
  var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    .map { bytes in
      String(
        decoding: bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes[...], as: UTF8.self)
    }
  if lines[0].unicodeScalars.first == "\u{FEFF}" {
    lines[0] = String(lines[0].unicodeScalars.dropFirst())
  }
  return lines
}

/// True for a line that must be an entry of its own: not blank (spaces and tabs), not a comment
/// (`#` first after spaces), not indented, not `---` or `...` (with nothing but a comment after).
func isEntryLine(_ line: String) -> Bool {
  let scalars = line.unicodeScalars
  guard let first = scalars.first(where: { $0 != " " && $0 != "\t" }), first != "#",
    scalars.first != " ", scalars.first != "\t"
  else { return false }
  for marker in ["---", "..."] where line.hasPrefix(marker) {
    let rest = line.dropFirst(3)
    let comment = (rest.first == " " || rest.first == "\t") && trimmingBlanks(rest).hasPrefix("#")
    if trimmingBlanks(rest).isEmpty || comment { return false }
  }
  return true
}

/// True when `value` can be found on `line` as it was written: as it is for a plain value or a
/// double-quoted one without escapes, with each `'` doubled for a single-quoted one.
func isWritten(_ value: String, on line: String) -> Bool {
  let scalars = Array(line.unicodeScalars)
  func contains(_ text: String) -> Bool {
    let needle = Array(text.unicodeScalars)
    guard !needle.isEmpty else { return true }
    guard needle.count <= scalars.count else { return false }
    return (0...(scalars.count - needle.count)).contains {
      Array(scalars[$0..<($0 + needle.count)]) == needle
    }
  }
  if contains(value) { return true }
  if line.contains("'"), contains(value.replacing("'", with: "''")) { return true }
  return line.contains("\\") && line.contains("\"")
}

extension SettingsText.Entry {
  /// A value the canonical writer can write: `\u` takes four digits, so a scalar beyond them is
  /// written as it is, which a quote before it would join if it combines with what precedes it.
  var isWritable: Bool {
    let texts: [String] =
      switch value {
      case .scalar(let text): [text]
      case .list(let items): items
      case .mapping: []
      }
    return texts.allSatisfy { ($0.unicodeScalars.first?.value ?? 0) <= 0xFFFF }
  }
}

/// The entries as a settings file: `key: "value"`, `key: ["a", "b"]`, `key: {}`.
func canonicalText(_ entries: [SettingsText.Entry]) -> String {
  entries.map { entry in
    switch entry.value {
    case .scalar(let text): "\(entry.key): \(doubleQuoted(text))"
    case .list(let items): "\(entry.key): [\(items.map(doubleQuoted).joined(separator: ", "))]"
    case .mapping: "\(entry.key): {}"
    }
  }.joined(separator: "\n") + "\n"
}

/// `text` in double quotes with YAML's escapes: every scalar outside printable ASCII escaped, as
/// `\uXXXX` where it fits in four digits.
func doubleQuoted(_ text: String) -> String {
  var out = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\t": out += "\\t"
    case "\r": out += "\\r"
    case " "..."~": out.unicodeScalars.append(scalar)
    default:
      if scalar.value <= 0xFFFF {
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
  }
  return out + "\""
}
