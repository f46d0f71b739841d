import Foundation

/// Turns the literal text of a number in a payload into a `Decimal`, exactly, or refuses.
///
/// `Decimal(string:)` alone is too lenient: it reads a prefix (`"12abc"` becomes 12) and accepts
/// spaces. This accepts only the JSON number grammar, at most 32 significant characters and a
/// small exponent, so that nothing odd can become a price.
public enum ExactDecimal {
  public static func parse(_ text: String) -> Decimal? {
    guard text.utf8.count <= 40, matchesNumberGrammar(text) else { return nil }
    return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
  }

  private static func matchesNumberGrammar(_ text: String) -> Bool {
    var bytes = text.utf8[...]
    func digits() -> Int {
      let count = bytes.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.count
      bytes = bytes.dropFirst(count)
      return count
    }
    if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
    guard digits() > 0 else { return false }
    if bytes.first == UInt8(ascii: ".") {
      bytes = bytes.dropFirst()
      guard digits() > 0 else { return false }
    }
    if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
      bytes = bytes.dropFirst()
      if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") {
        bytes = bytes.dropFirst()
      }
      guard (1...2).contains(digits()) else { return false }
    }
    return bytes.isEmpty
  }
}
