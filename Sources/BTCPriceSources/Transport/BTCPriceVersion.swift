/// The product version, sent as `User-Agent: btc-price/<version>` and shown by `--version`.
///
/// `current` is the one place the version is written: scripts/package names the release's files
/// after what the built binary's `--version` says, and the release workflow refuses a tag that
/// differs from it.
public enum BTCPriceVersion {
  public static let current = "0.1.0"
  public static let userAgent = "btc-price/\(current)"

  /// The commit this source was exported from. `git archive` writes it in place of the
  /// placeholder (.gitattributes marks this file `export-subst`, gitattributes(5)): in
  /// scripts/package's build, which is made from `git archive`, and in a release's source
  /// tarball. A build from a git checkout keeps the placeholder.
  static let archivedCommit = "$Format:%H$"

  /// What `--version` prints: `0.1.0 (commit 3db5299…)`.
  public static let display = display(version: current, archivedCommit: archivedCommit)

  /// `version (commit <hash>)` when `archivedCommit` is one (scripts/package may add
  /// `with uncommitted changes` after it), else `version (built from a git checkout; commit not
  /// recorded)`.
  public static func display(version: String, archivedCommit: String) -> String {
    if archivedCommit.isEmpty || archivedCommit.hasPrefix("$Format") {
      return "\(version) (built from a git checkout; commit not recorded)"
    }
    return "\(version) (commit \(archivedCommit))"
  }
}
