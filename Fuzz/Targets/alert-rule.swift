// fuzz-modules: BTCPriceRuntime BTCPriceCore
import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `--alert` rules and the settings file's `alert:` items, read by `AlertRule.parse`; the input
/// is the rule's text.
///
/// Properties of a rule that parses:
/// - its `description` (what the state file keys it by, and what `serve`'s page lists) parses
///   back to the same rule and prints the same text again;
/// - it is the kind its name says (`above`, `below`, `move`, in any case of ASCII letters);
/// - a threshold or a percent is exactly the number written, positive (a percent below 100);
/// - a window is the whole number of seconds, minutes or hours written, from 1 s to 24 h.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard let text = inputText(data, size), let rule = try? AlertRule.parse(text) else { return 0 }
  let printed = rule.description
  guard let again = try? AlertRule.parse(printed) else {
    violated("\(debugText(text)) read as \(printed), which does not parse")
  }
  guard again == rule, again.description == printed else {
    violated("\(debugText(text)) read as \(printed), which parses to \(again)")
  }
  guard let written = WrittenRule(text) else {
    violated("\(debugText(text)) parsed to \(printed) but is not `name:argument`")
  }
  switch rule.kind {
  case .above(let price), .below(let price):
    let name = if case .above = rule.kind { "above" } else { "below" }
    guard written.name == name else {
      violated("\(debugText(text)) is named \(written.name) but parsed to \(printed)")
    }
    guard price > 0, isTheValue(price, of: written.argument) else {
      violated("\(debugText(text)): threshold \(price) is not the number written")
    }
  case .move(let percent, let window):
    guard written.name == "move" else {
      violated("\(debugText(text)) is named \(written.name) but parsed to \(printed)")
    }
    let parts = written.argument.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0].hasSuffix("%"),
      isTheValue(percent, of: String(parts[0].dropLast())), percent > 0, percent < 100
    else {
      violated("\(debugText(text)): percent \(percent) is not the number written before %")
    }
    guard let seconds = writtenWindow(parts[1]), window == .seconds(seconds),
      (1...86_400).contains(seconds)
    else {
      violated("\(debugText(text)): window \(window) is not the whole units written")
    }
  }
  return 0
}

/// A rule as written: the name before the first colon, ASCII letters in lower case, and the
/// argument after it, the blanks around the whole rule left out.
struct WrittenRule {
  let name: String
  let argument: String

  init?(_ text: String) {
    let trimmed = trimmingBlanks(text)
    guard let colon = trimmed.firstIndex(of: ":") else { return nil }
    let name = trimmed[..<colon]
    guard name.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic }) else {
      return nil
    }
    self.name = name.lowercased()
    argument = String(trimmed[trimmed.index(after: colon)...])
  }
}

/// `30s`, `15m`, `4h`: the seconds of a window written as ASCII digits and a unit; nil for any
/// other text, or for more seconds than an `Int64` holds.
func writtenWindow(_ text: Substring) -> Int64? {
  guard let unit = text.last, !text.dropLast().isEmpty,
    text.dropLast().unicodeScalars.allSatisfy({ ("0"..."9").contains($0) })
  else { return nil }
  let scale: Int64 =
    switch unit {
    case "s": 1
    case "m": 60
    case "h": 3600
    default: 0
    }
  guard scale > 0, let count = Int64(text.dropLast()) else { return nil }
  let (seconds, overflow) = count.multipliedReportingOverflow(by: scale)
  return overflow ? nil : seconds
}

/// The text with its control characters visible, for a finding's message.
func debugText(_ text: String) -> String {
  String(reflecting: text)
}
