#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Why a TLS connection to a source failed, in words a user can act on. The transport decides
/// which case applies; the words and the advice are here, tested on their own.
public enum TLSFailureReason: Equatable, Sendable, CustomStringConvertible {
  /// Signed by an authority this machine does not trust: a private CA, or a company proxy that
  /// inspects TLS.
  case unknownIssuer
  /// The certificate is for other names.
  case wrongHost(expected: String, names: [String])
  case expired(on: Date)
  case notYetValid(from: Date)
  /// The server answered in something else than TLS (plain HTTP on a TLS port, say).
  case notTLS
  /// Anything else, as the TLS library said it.
  case other(String)

  public var description: String {
    switch self {
    case .unknownIssuer:
      return "the certificate is signed by an authority this machine does not trust"
        + " — behind a company proxy that inspects TLS, give its CA with --ca-file"
        + " (or $SSL_CERT_FILE)"
    case .wrongHost(let expected, let names):
      let list = names.isEmpty ? "no host names" : names.joined(separator: ", ")
      return "the certificate is not for \(expected) but for \(list)"
        + " — check the source's URL, or whether a proxy or captive portal answers instead"
    case .expired(let date):
      return "the certificate expired on \(Self.day(date))"
        + " — if this machine's clock is right, the server must renew it"
    case .notYetValid(let date):
      return "the certificate is not valid before \(Self.day(date)) — check this machine's clock"
    case .notTLS:
      return "the server did not answer in TLS — is the URL https:// on a plain-HTTP port?"
    case .other(let text):
      return text
    }
  }

  private static func day(_ date: Date) -> String {
    date.formatted(.iso8601.year().month().day().dateSeparator(.dash))
  }
}
