import BTCPriceCore
import BTCPriceFeature
import BTCPricePublish
import BTCPriceServer
import BTCPriceTestSupport
import Foundation
import Testing

/// The files of `deploy/edge/www/` are serve's bytes: a change to the page's script or style, or to
/// what serve answers before it knows a price, must reach the edges too.
/// `BTC_PRICE_WRITE_EDGE_FILES=1 swift test --filter EdgeFilesAgreementTests` rewrites them.
@Suite("The edge's files are serve's", .hangLimit(.seconds(30)))
struct EdgeFilesAgreementTests {
  private let folder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("deploy/edge/www")

  @Test func everyFileInDeployEdgeWWW_isWhatServeSends() throws {
    let rewrite = ProcessInfo.processInfo.environment["BTC_PRICE_WRITE_EDGE_FILES"] == "1"
    for (name, contents) in EdgeFiles.all() {
      let url = folder.appendingPathComponent(name)
      if rewrite { try Data(contents.utf8).write(to: url) }
      let committed = try String(contentsOf: url, encoding: .utf8)
      #expect(committed == contents, "deploy/edge/www/\(name) differs from serve's; see this suite")
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(names == EdgeFiles.all().map(\.name).sorted())
  }

  /// A viewer resumes as far back behind the edges as behind serve: the stream's nchan buffer
  /// keeps as many ticks as serve's resume ring, and serve's ring keeps exactly that many.
  @Test func theEdgesResumeBuffer_isServesRing() throws {
    let locations = try String(
      contentsOf: folder.deletingLastPathComponent().appendingPathComponent("locations.conf"),
      encoding: .utf8)
    let stream = try #require(locations.components(separatedBy: "location = /pub/stream {").last)
    let buffer = try #require(
      stream.components(separatedBy: "nchan_message_buffer_length ").dropFirst().first?
        .prefix { $0.isNumber })
    let serve = PriceBroadcaster(
      initial: PricePresenter(timestamps: .utc(precision: .seconds)).presentRestored(nil))
    for tick in 1...200 {
      serve.publish(
        PricePresenter(timestamps: .utc(precision: .seconds))
          .present(.fresh(PriceQuote(value: Decimal(tick), timestamp: .now, source: .binance))))
    }

    #expect(Int(buffer) == serve.recent.count)
    #expect(serve.recent.map(\.id) == Array((200 - serve.recent.count + 1)...200))
  }
}
