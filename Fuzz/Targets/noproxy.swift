// fuzz-modules: BTCPriceRuntime BTCPriceCore BTCPriceSources
import BTCPriceCore
import BTCPriceSources

/// `NO_PROXY` and the `no-proxy` setting, read by `NoProxyList(_:)` and asked with
/// `matches(_:)`, as curl documents them. The input is the list, a line feed, and the host.
///
/// Properties (the time an input takes is bounded by the script's per-input limit):
/// - a list whose comma-separated entries are all blank matches no host;
/// - a list with an entry `*` matches every host;
/// - an entry written as the host, in any case, matches it, for a host that is a name or an IPv4
///   address (anything without `:`, `/`, brackets, commas or blanks, with a letter or a digit);
/// - the entries' order does not matter, and another entry never takes a match away;
/// - in ASCII, neither the list's case nor the host's changes the answer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard let text = inputText(data, size), let (listText, host) = splitAtFirstLineFeed(text)
  else { return 0 }
  let list = NoProxyList(listText)
  let matches = list.matches(host)
  let entries = entriesOf(listText)
  let shown = "list \(String(reflecting: listText)), host \(String(reflecting: host))"
  if entries.allSatisfy(\.isEmpty), matches {
    violated("\(shown): a list of no entries matches")
  }
  if entries.contains("*"), !matches {
    violated("\(shown): a list with * does not match")
  }
  if isPlainHost(host), entries.contains(where: { $0.lowercased() == host.lowercased() }),
    !matches
  {
    violated("\(shown): an entry written as the host does not match it")
  }
  // Only where the commas stay separate Characters: a comma before a combining mark, or after
  // a prefix mark (U+0600), is one Character with it and separates nothing.
  let reordered = entries.reversed().joined(separator: ",")
  if entriesOf(reordered) == entries.reversed(), NoProxyList(reordered).matches(host) != matches {
    violated("\(shown): the entries in the other order answer \(!matches)")
  }
  let longer = listText + ",example.org"
  if matches, entriesOf(longer) == entries + ["example.org"], !NoProxyList(longer).matches(host) {
    violated("\(shown): another entry took the match away")
  }
  if listText.allSatisfy(\.isASCII), host.allSatisfy(\.isASCII),
    NoProxyList(listText.uppercased()).matches(host.uppercased()) != matches
  {
    violated("\(shown): in upper case the answer is \(!matches)")
  }
  return 0
}

/// A host name or an IPv4 address as a URL would hold it, in any script: no character that
/// separates entries, ports, networks or an IPv6 address, and something besides dots.
func isPlainHost(_ host: String) -> Bool {
  let separators: Set<Character> = [",", ":", "/", "[", "]", " ", "\t", "\n", "\r"]
  return !host.contains(where: { separators.contains($0) })
    && host.contains(where: { $0.isLetter || $0.isNumber })
}

/// The list's entries as written, blanks around them left out, empty ones kept.
func entriesOf(_ list: String) -> [String] {
  list.split(separator: ",", omittingEmptySubsequences: false).map { trimmingBlanks($0) }
}
