/// The input as text, for the targets whose parsers read a `String`: nil when the bytes are not
/// UTF-8, which no such parser is ever handed (the settings file, a header and the environment
/// are checked for UTF-8 before they are parsed).
func inputText(_ data: UnsafePointer<UInt8>, _ size: Int) -> String? {
  String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
}

/// `text` split at its first line feed, scalar by scalar (a `\r\n` is one Character): the part
/// before it and the part after it; nil when there is none.
func splitAtFirstLineFeed(_ text: String) -> (first: String, rest: String)? {
  let scalars = text.unicodeScalars
  guard let end = scalars.firstIndex(of: "\n") else { return nil }
  return (String(scalars[..<end]), String(scalars[scalars.index(after: end)...]))
}

/// `text` without the spaces and tabs at either end, Character by Character as Swift compares
/// text (a space followed by a combining mark is no space).
func trimmingBlanks(_ text: some StringProtocol) -> String {
  let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
  guard let first = text.firstIndex(where: { !isBlank($0) }),
    let last = text.lastIndex(where: { !isBlank($0) })
  else { return "" }
  return String(text[first...last])
}
