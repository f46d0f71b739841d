// fuzz-modules: BTCPriceRuntime BTCPriceCore BTCPriceSources
import BTCPriceCore
import BTCPriceSources

/// `--proxy`, `HTTPS_PROXY` and the other proxy variables, read by
/// `ProxyEndpoint(parsing:)`; the input is the proxy URL.
///
/// Properties of a proxy that is read:
/// - its port is in 1...65535 and is 1080 (curl's default) or written in the input;
/// - its host is not empty and is written in the input, as it is or percent-encoded (in any
///   case of ASCII letters, as a URL's host is);
/// - its user name and password are written in the input, as they are or percent-encoded;
/// - its kind is the scheme written, `http` when none is;
/// - for an ASCII host, its redacted form (what `--verbose` and `doctor` show) reads back as the
///   same kind, host and port, with a user exactly when there was one; and whatever the host,
///   that form is the same whatever the user name and password (it shows neither).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard let text = inputText(data, size), let proxy = try? ProxyEndpoint(parsing: text) else {
    return 0
  }
  let shown =
    "\(String(reflecting: text)) read as \(proxy.kind) host "
    + "\(String(reflecting: proxy.host)) port \(proxy.port)"
  guard (1...65_535).contains(proxy.port) else { violated("\(shown): port out of range") }
  guard proxy.port == 1080 || scalarsContain(text, String(proxy.port)) else {
    violated("\(shown): a port not written")
  }
  let decoded = percentDecoded(text)
  let written = [text.lowercased(), decoded.lowercased()]
  guard !proxy.host.isEmpty,
    written.contains(where: { scalarsContain($0, proxy.host.lowercased()) })
  else {
    violated("\(shown): a host not written")
  }
  for (name, credential) in [("user", proxy.username), ("password", proxy.password)] {
    if let credential, !scalarsContain(text, credential), !scalarsContain(decoded, credential) {
      violated("\(shown): a \(name) \(String(reflecting: credential)) not written")
    }
  }
  let trimmed = trimmingBlanks(text)
  // Found scalar by scalar, as a URL parser reads it: a combining mark after `//` joins the `/`.
  let scalars = Array(trimmed.unicodeScalars)
  let separator = Array("://".unicodeScalars)
  let schemeEnd = scalars.indices.first { scalars[$0...].starts(with: separator) }
  // Without a `://` of whole Characters the product reads the text as `http://` and the text.
  let scheme =
    trimmed.contains("://")
    ? schemeEnd.map { String(String.UnicodeScalarView(scalars[..<$0])) } ?? "http" : "http"
  guard scheme.lowercased() == proxy.kind.rawValue else {
    violated("\(shown): the scheme written is \(String(reflecting: scheme))")
  }
  // The redacted form never shows the user info: it is the same whatever the user and password.
  let otherCredentials = ProxyEndpoint(
    kind: proxy.kind, host: proxy.host, port: proxy.port,
    username: proxy.username.map { _ in "someone" }, password: "something else")
  guard otherCredentials.redacted == proxy.redacted else {
    violated("\(shown): its redacted form \(proxy.redacted) depends on its user info")
  }
  // Read back only for an ASCII host: the redacted form is for people, and a host that starts
  // with a combining mark joins the `/` before it, so that no `://` is left to read.
  guard proxy.host.allSatisfy(\.isASCII) else { return 0 }
  guard let again = try? ProxyEndpoint(parsing: proxy.redacted) else {
    violated("\(shown): its redacted form \(String(reflecting: proxy.redacted)) is no proxy URL")
  }
  guard again.kind == proxy.kind, again.host == proxy.host, again.port == proxy.port,
    (again.username != nil) == (proxy.username != nil)
  else {
    violated("\(shown): its redacted form \(proxy.redacted) reads as \(again)")
  }
  return 0
}

/// `text` with every `%XX` (two hexadecimal digits) turned into its byte, read as UTF-8 with
/// replacement characters; any other `%` stays as it is.
func percentDecoded(_ text: String) -> String {
  let bytes = Array(text.utf8)
  var out: [UInt8] = []
  var index = 0
  while index < bytes.count {
    if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
      let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
    {
      out.append(high << 4 | low)
      index += 3
    } else {
      out.append(bytes[index])
      index += 1
    }
  }
  return String(decoding: out, as: UTF8.self)
}

func hexValue(_ byte: UInt8) -> UInt8? {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
  case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
  case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
  default: nil
  }
}

/// True when `part`'s scalars are a run of `text`'s: scalar by scalar, since a Character of the
/// input can hold the end of one part and the start of the next (`@` and a combining mark).
func scalarsContain(_ text: String, _ part: String) -> Bool {
  let scalars = Array(text.unicodeScalars)
  let needle = Array(part.unicodeScalars)
  guard needle.count <= scalars.count else { return false }
  return needle.isEmpty
    || (0...(scalars.count - needle.count)).contains {
      scalars[$0..<($0 + needle.count)].elementsEqual(needle)
    }
}
