import BTCPriceSources
import BTCPriceTestSupport
import Testing

@Suite("Show the version and the commit it was built from", .hangLimit(.seconds(30)))
struct ShowTheVersionUseCaseTests {
  @Test func display_namesTheCommitGitArchiveWroteIn() {
    let commit = "3db5299a7f6e5d4c3b2a1f0e9d8c7b6a5f4e3d2c"

    #expect(
      BTCPriceVersion.display(version: "1.2.3", archivedCommit: commit)
        == "1.2.3 (commit 3db5299a7f6e5d4c3b2a1f0e9d8c7b6a5f4e3d2c)")
  }

  @Test func display_saysSoWhenBuiltFromACheckout() {
    // The placeholder as a git checkout has it: git archive was not involved.
    let placeholder = "$" + "Format:%H$"

    #expect(
      BTCPriceVersion.display(version: "1.2.3", archivedCommit: placeholder)
        == "1.2.3 (built from a git checkout; commit not recorded)")
    #expect(
      BTCPriceVersion.display(version: "1.2.3", archivedCommit: "")
        == "1.2.3 (built from a git checkout; commit not recorded)")
  }

  @Test func display_startsWithTheVersionTheUserAgentSends() {
    #expect(BTCPriceVersion.display.hasPrefix(BTCPriceVersion.current + " ("))
    #expect(BTCPriceVersion.userAgent == "btc-price/" + BTCPriceVersion.current)
  }
}
