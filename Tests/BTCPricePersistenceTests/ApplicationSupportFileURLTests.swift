import BTCPricePersistence
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Where the Apple apps keep the last price", .hangLimit(.seconds(30)))
struct ApplicationSupportFileURLTests {
  @Test func applicationSupportFileURL_isOurFileInApplicationSupportNotInCaches() throws {
    let support = try #require(
      FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first)

    let url = try FilePriceStore.applicationSupportFileURL()

    #expect(url.path == support.appendingPathComponent("btc-price/last-price.json").path)
  }
}
