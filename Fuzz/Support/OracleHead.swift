#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The reads a peer's bytes arrive in: `size` bytes each, or all of them in one read when `size`
/// is 0 (a head and what follows it in the same read, as a fast server's often are).
func oracleReads(of bytes: [UInt8], size: Int) -> [ArraySlice<UInt8>] {
  guard size > 0, !bytes.isEmpty else { return [bytes[...]] }
  return stride(from: 0, to: bytes.count, by: size).map {
    bytes[$0..<min($0 + size, bytes.count)]
  }
}

/// The numbers of a case line such as `7 1024`: each word a decimal number of at most six
/// digits, or nil.
func oracleCaseNumbers(_ line: String) -> [Int]? {
  let words = line.split(separator: " ")
  let numbers = words.compactMap { word in
    word.count <= 6 && word.utf8.allSatisfy { (48...57).contains($0) } ? Int(word) : nil
  }
  return numbers.count == words.count ? numbers : nil
}

/// The offset just past the first CRLF CRLF of `bytes`, where an HTTP head ends.
func oracleEndOfHead(_ bytes: [UInt8]) -> Int? {
  guard bytes.count >= 4 else { return nil }
  for index in 0...(bytes.count - 4)
  where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13
    && bytes[index + 3] == 10
  {
    return index + 4
  }
  return nil
}

/// An HTTP/1.x answer's head read strictly, by RFC 9112's grammar and nothing looser: the oracles
/// predict what a head means only when it is this plain, and say less otherwise.
struct OracleHead {
  /// 0 or 1, of `HTTP/1.x`.
  let minorVersion: Int
  let status: Int
  /// Each field's name lowercased and its value without the whitespace around it, in order.
  let fields: [(name: String, value: String)]

  /// The values of every field named `name` (lowercase).
  func values(_ name: String) -> [String] {
    fields.filter { $0.name == name }.map(\.value)
  }

  /// `head` is the bytes up to and including the blank line.
  init?(_ head: ArraySlice<UInt8>) {
    var lines: [ArraySlice<UInt8>] = []
    var rest = head
    while let end = rest.firstIndex(of: 10) {
      guard end > rest.startIndex, rest[end - 1] == 13 else { return nil }
      lines.append(rest[rest.startIndex..<(end - 1)])
      rest = rest[(end + 1)...]
    }
    guard rest.isEmpty, lines.count >= 2, lines.last!.isEmpty else { return nil }
    let statusLine = Array(lines[0])
    // `HTTP/1.1 200 OK`: the version, a space, three digits, a space, a reason of visible
    // characters and spaces.
    guard statusLine.count >= 13, Array(statusLine[0..<7]) == Array("HTTP/1.".utf8),
      statusLine[7] == UInt8(ascii: "1") || statusLine[7] == UInt8(ascii: "0"),
      statusLine[8] == 32, statusLine[12] == 32,
      statusLine[9..<12].allSatisfy({ (48...57).contains($0) }), statusLine[9] != 48,
      statusLine[13...].allSatisfy({ (32...126).contains($0) })
    else { return nil }
    minorVersion = statusLine[7] == UInt8(ascii: "1") ? 1 : 0
    status = Int(String(decoding: statusLine[9..<12], as: UTF8.self))!
    var fields: [(name: String, value: String)] = []
    for line in lines.dropFirst().dropLast() {
      guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
        line[..<colon].allSatisfy(Self.isTokenByte),
        line[(colon + 1)...].allSatisfy({ (32...126).contains($0) || $0 == 9 })
      else { return nil }
      let value = line[(colon + 1)...].drop { $0 == 32 || $0 == 9 }
      let trimmed = value.reversed().drop { $0 == 32 || $0 == 9 }.reversed()
      fields.append(
        (
          String(decoding: line[..<colon], as: UTF8.self).lowercased(),
          String(decoding: trimmed, as: UTF8.self)
        ))
    }
    self.fields = fields
  }

  static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    default:
      return "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
  }
}
