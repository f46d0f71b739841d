extension StringProtocol {
  /// Without leading and trailing spaces and tabs: what `trimmingCharacters(in: .whitespaces)`
  /// does, which FoundationEssentials does not have.
  package var trimmingWhitespace: String {
    let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = firstIndex(where: { !isBlank($0) }),
      let last = lastIndex(where: { !isBlank($0) })
    else { return "" }
    return String(self[first...last])
  }
}
