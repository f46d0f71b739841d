/// Which certificate authorities the TLS connections trust, chosen as OpenSSL tools choose them:
/// `--ca-file` (or the `ca-file` setting) over `SSL_CERT_FILE` over `SSL_CERT_DIR` over the
/// system's. A company proxy that inspects TLS signs with its own CA; this is how a user adds it.
public enum TrustSource: Equatable, Sendable, CustomStringConvertible {
  /// Where the file's or folder's name came from.
  public enum Origin: Equatable, Sendable, CustomStringConvertible {
    /// `--ca-file`, or the settings file's `ca-file`.
    case caFileSetting
    /// An OpenSSL variable: `SSL_CERT_FILE`, `SSL_CERT_DIR`.
    case environment(variable: String)

    public var description: String {
      switch self {
      case .caFileSetting: "the ca-file setting"
      case .environment(let variable): "$\(variable)"
      }
    }
  }

  case system
  /// A PEM file of one or more certificates, and where its name came from.
  case file(path: String, origin: Origin)
  /// A folder of PEM files, and where its name came from.
  case directory(path: String, origin: Origin)

  public static func choose(caFile: String?, environment: [String: String]) -> TrustSource {
    if let caFile, !caFile.isEmpty { return .file(path: caFile, origin: .caFileSetting) }
    if let file = environment["SSL_CERT_FILE"], !file.isEmpty {
      return .file(path: file, origin: .environment(variable: "SSL_CERT_FILE"))
    }
    if let directory = environment["SSL_CERT_DIR"], !directory.isEmpty {
      return .directory(path: directory, origin: .environment(variable: "SSL_CERT_DIR"))
    }
    return .system
  }

  public var description: String {
    switch self {
    case .system: "the system's certificate authorities"
    case .file(let path, let origin): "\(path) (from \(origin))"
    case .directory(let path, let origin): "the certificates in \(path) (from \(origin))"
    }
  }
}
