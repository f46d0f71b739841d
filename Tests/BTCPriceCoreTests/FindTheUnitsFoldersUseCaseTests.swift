import BTCPriceCore
import BTCPriceRuntime
import BTCPriceTestSupport
import Testing

@Suite("Find the folders systemd made for the unit", .hangLimit(.seconds(30)))
struct FindTheUnitsFoldersUseCaseTests {
  @Test func path_readsEachVariableSystemdSets() {
    let environment = [
      "CACHE_DIRECTORY": "/var/cache/btc-price", "STATE_DIRECTORY": "/var/lib/btc-price",
      "CONFIGURATION_DIRECTORY": "/etc/btc-price",
    ]

    #expect(ServiceDirectory.cache.path(in: environment) == "/var/cache/btc-price")
    #expect(ServiceDirectory.state.path(in: environment) == "/var/lib/btc-price")
    #expect(ServiceDirectory.configuration.path(in: environment) == "/etc/btc-price")
  }

  @Test func path_takesTheFirstOfSeveralFolders() {
    // systemd.exec(5): "If multiple directories are set, then in the environment variable the
    // paths are concatenated with colon".
    let environment = ["STATE_DIRECTORY": "/var/lib/btc-price:/var/lib/other"]

    #expect(ServiceDirectory.state.path(in: environment) == "/var/lib/btc-price")
  }

  @Test func path_dropsATrailingSlashButKeepsTheRoot() {
    #expect(
      ServiceDirectory.cache.path(in: ["CACHE_DIRECTORY": "/var/cache/x//"]) == "/var/cache/x")
    #expect(ServiceDirectory.cache.path(in: ["CACHE_DIRECTORY": "/"]) == "/")
  }

  @Test(arguments: [nil, "", "relative/folder", ":/var/cache/btc-price"])
  func path_isNilWhenTheVariableNamesNoAbsoluteFolder(value: String?) {
    let environment = value.map { ["CACHE_DIRECTORY": $0] } ?? [:]

    #expect(ServiceDirectory.cache.path(in: environment) == nil)
  }
}
