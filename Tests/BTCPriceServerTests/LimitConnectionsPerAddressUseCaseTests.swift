import BTCPriceTestSupport
import Testing

@testable import BTCPriceServer

/// `serve`'s limit of open connections per client address: what one address may hold, that a
/// closed connection gives its place back (one, not more), and that addresses that have gone are
/// not remembered.
@Suite("Limit connections per address", .hangLimit(.seconds(30)))
struct LimitConnectionsPerAddressUseCaseTests {
  @Test func anAddress_holdsUpToTheLimit_andAClosedConnectionGivesBackOnePlace() {
    let sut = ConnectionLimiter(limitPerAddress: 2)

    #expect(sut.open("203.0.113.7"))
    #expect(sut.open("203.0.113.7"))
    #expect(!sut.open("203.0.113.7"), "over the limit")
    #expect(sut.open("198.51.100.1"), "another address has its own count")

    sut.close("203.0.113.7")
    #expect(sut.openConnections(from: "203.0.113.7") == 1)
    #expect(sut.open("203.0.113.7"))
    #expect(!sut.open("203.0.113.7"), "one place given back, not two")
  }

  @Test func anAddressNeverSeen_hasNoConnection() {
    let sut = ConnectionLimiter(limitPerAddress: 2)

    #expect(sut.openConnections(from: "192.0.2.1") == 0)
  }

  @Test func addressesThatHaveGone_areNotRemembered() {
    let sut = ConnectionLimiter(limitPerAddress: 4)
    for client in 1...1_000 {
      let address = "10.0.\(client / 256).\(client % 256)"
      #expect(sut.open(address))
      sut.close(address)
    }
    #expect(sut.open("10.9.9.9"))

    #expect(sut.countedAddresses == 1)
  }
}
