import BTCPriceCore

/// The hosts reached directly even when a proxy is set: `NO_PROXY` / `no_proxy` / the
/// `no-proxy` setting, matched as libcurl matches `CURLOPT_NOPROXY`
/// (https://curl.se/libcurl/c/CURLOPT_NOPROXY.html):
/// - a comma-separated list (spaces around names are ignored);
/// - a single `*` matches every host;
/// - each name matches the host itself or any host in its domain: "ample.com" matches
///   ample.com and www.ample.com, not www.example.com nor ample.com.org; a leading dot
///   (".ample.com") means the same;
/// - IP addresses match exactly, IPv6 without brackets; `a.b.c.d/n` and IPv6 `/n` (CIDR) match
///   the addresses in that network;
/// - an empty list matches nothing (curl: "explicitly enables the proxy for all hostnames").
/// Ports in the list (`host:8080`) are ignored, as curl ignores them for names.
public struct NoProxyList: Equatable, Sendable {
  private let entries: [String]
  private let matchesAll: Bool

  public init(_ text: String) {
    let entries =
      text.split(separator: ",")
      .map { $0.trimmingWhitespace.lowercased() }
      .filter { !$0.isEmpty }
    self.matchesAll = entries.contains("*")
    self.entries = entries
  }

  /// True when `host` (a name or an IP address, IPv6 with or without brackets) goes direct.
  public func matches(_ host: String) -> Bool {
    if matchesAll { return true }
    var host = host.lowercased()
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    if host.hasSuffix(".") { host.removeLast() }
    let hostAddress = IPAddressBytes(host)
    return entries.contains { entry in
      if let hostAddress, let (network, bits) = Self.network(entry) {
        return hostAddress.isIn(network, prefixLength: bits)
      }
      var name = Self.withoutPort(entry)
      if name.hasPrefix(".") { name.removeFirst() }
      if name.hasSuffix(".") { name.removeLast() }
      guard !name.isEmpty else { return false }
      return host == name || host.hasSuffix("." + name)
    }
  }

  /// An entry as an address and prefix length: `10.0.0.0/8`, `::1`, `192.168.1.5`.
  private static func network(_ entry: String) -> (IPAddressBytes, Int)? {
    let parts = entry.split(separator: "/", maxSplits: 1).map(String.init)
    // An entry of slashes alone splits into no parts at all.
    guard let first = parts.first, let address = IPAddressBytes(first) else { return nil }
    let all = address.bytes.count * 8
    guard parts.count == 2 else { return (address, all) }
    guard let bits = Int(parts[1]), (0...all).contains(bits) else { return nil }
    return (address, bits)
  }

  private static func withoutPort(_ entry: String) -> String {
    // "host:port" has one colon; an IPv6 address has several and is handled as an address.
    let colons = entry.filter { $0 == ":" }.count
    guard colons == 1, let index = entry.firstIndex(of: ":") else { return entry }
    return String(entry[..<index])
  }
}

/// An IPv4 or IPv6 address as bytes, for NO_PROXY's exact and CIDR matches.
struct IPAddressBytes: Equatable {
  let bytes: [UInt8]

  init?(_ text: String) {
    if let v4 = Self.v4(text) {
      bytes = v4
    } else if let v6 = Self.v6(text) {
      bytes = v6
    } else {
      return nil
    }
  }

  func isIn(_ network: IPAddressBytes, prefixLength: Int) -> Bool {
    guard bytes.count == network.bytes.count else { return false }
    var remaining = prefixLength
    for (mine, theirs) in zip(bytes, network.bytes) where remaining > 0 {
      let take = min(8, remaining)
      let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - take))
      if mine & mask != theirs & mask { return false }
      remaining -= take
    }
    return true
  }

  private static func v4(_ text: String) -> [UInt8]? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4 else { return nil }
    let bytes = parts.compactMap { $0.count <= 3 ? UInt8($0) : nil }
    return bytes.count == 4 ? bytes : nil
  }

  private static func v6(_ text: String) -> [UInt8]? {
    guard text.contains(":") else { return nil }
    let halves = text.split(separator: "::", omittingEmptySubsequences: false).map(String.init)
    guard halves.count <= 2 else { return nil }
    func groups(_ part: String) -> [UInt16]? {
      guard !part.isEmpty else { return [] }
      var result: [UInt16] = []
      for group in part.split(separator: ":", omittingEmptySubsequences: false) {
        guard (1...4).contains(group.count), let value = UInt16(group, radix: 16) else {
          return nil
        }
        result.append(value)
      }
      return result
    }
    guard let head = groups(halves[0]) else { return nil }
    let tail = halves.count == 2 ? groups(halves[1]) : []
    guard let tail else { return nil }
    let missing = 8 - head.count - tail.count
    guard halves.count == 2 ? missing >= 1 : missing == 0 else { return nil }
    let all = head + Array(repeating: 0, count: halves.count == 2 ? missing : 0) + tail
    return all.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
  }
}
