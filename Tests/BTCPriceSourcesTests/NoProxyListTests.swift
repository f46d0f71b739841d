import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// NO_PROXY as libcurl documents it (https://curl.se/libcurl/c/CURLOPT_NOPROXY.html): "ample.com
/// would match ample.com, ample.com:80, and www.ample.com, but not www.example.com or
/// ample.com.org"; a single `*` matches every host; IPv6 without brackets
/// ("example.com,::1,localhost"); CIDR since 7.86.0 ("192.168.0.0/16 would match all addresses
/// starting with 192.168"); an empty string enables the proxy for every host.
@Suite("Go direct to the hosts NO_PROXY names", .hangLimit(.seconds(30)))
struct NoProxyListTests {
  @Test(arguments: ["ample.com", "www.ample.com", "AMPLE.com", "ample.com."])
  func domain_matchesTheHostAndItsSubdomains(host: String) {
    #expect(NoProxyList("ample.com").matches(host))
  }

  @Test(arguments: ["www.example.com", "ample.com.org", "notample.com"])
  func domain_doesNotMatchOtherHostsThatMerelyEndAlike(host: String) {
    #expect(!NoProxyList("ample.com").matches(host))
  }

  @Test func leadingDot_meansTheSameDomain() {
    let list = NoProxyList(".ample.com")
    #expect(list.matches("www.ample.com"))
    #expect(list.matches("ample.com"))
    #expect(!list.matches("example.com"))
  }

  @Test func portInTheList_isIgnoredForTheName() {
    #expect(NoProxyList("ample.com:80").matches("ample.com"))
  }

  @Test func star_matchesEveryHost() {
    #expect(NoProxyList("*").matches("api.binance.com"))
    #expect(NoProxyList("example.com, *").matches("10.1.2.3"))
  }

  @Test func empty_matchesNothing() {
    #expect(!NoProxyList("").matches("localhost"))
    #expect(!NoProxyList(" , ").matches("localhost"))
  }

  @Test func list_isCommaSeparatedWithSpacesIgnored() {
    let list = NoProxyList("example.com, ::1 ,localhost")
    #expect(list.matches("localhost"))
    #expect(list.matches("::1"))
    #expect(list.matches("[::1]"))
    #expect(list.matches("www.example.com"))
    #expect(!list.matches("api.binance.com"))
  }

  @Test func ipAddress_matchesOnlyThatAddress() {
    let list = NoProxyList("127.0.0.1")
    #expect(list.matches("127.0.0.1"))
    #expect(!list.matches("127.0.0.2"))
    #expect(!list.matches("1127.0.0.1"))
  }

  @Test func cidr_matchesTheAddressesInTheNetwork() {
    let list = NoProxyList("192.168.0.0/16, fd00::/8")
    #expect(list.matches("192.168.4.20"))
    #expect(!list.matches("192.169.0.1"))
    #expect(list.matches("fd12:3456::1"))
    #expect(!list.matches("fe80::1"))
  }

  @Test func namesInTheList_matchWhateverTheirCase() {
    #expect(NoProxyList("API.Binance.COM").matches("api.binance.com"))
    #expect(NoProxyList(".Binance.com").matches("stream.BINANCE.com"))
  }

  @Test func trailingDotInTheList_meansTheSameDomain() {
    #expect(NoProxyList("ample.com.").matches("www.ample.com"))
  }

  @Test func cidr_countsBitsInsideAByte() {
    let list = NoProxyList("10.16.0.0/12")
    #expect(list.matches("10.16.0.1"))
    #expect(list.matches("10.31.255.255"))
    #expect(!list.matches("10.32.0.0"))
    #expect(!list.matches("10.15.255.255"))
  }

  @Test func cidr_endingOneBitIntoAByte_looksAtThatBit() {
    let list = NoProxyList("10.128.0.0/9")
    #expect(list.matches("10.200.0.1"))
    #expect(!list.matches("10.0.0.1"))
  }

  /// An entry that is neither an address nor a network (curl refuses a prefix past the address's
  /// bits) matches nothing, not even the address it starts with.
  @Test(
    arguments: [
      ("10.0.0.7/33", "10.0.0.7"),
      ("10.0.0.7/-1", "10.0.0.7"),
      ("10.0.0.7/32/1", "10.0.0.7"),
      ("::00001", "::1"),
      ("1:2:3:4:5:6:7:8::1::1", "1:2:3:4:5:6:7:8"),
      ("1:2:3:4:5:6:7:8::", "1:2:3:4:5:6:7:8"),
      ("0010.0.0.7", "10.0.0.7"),
    ])
  func anEntryThatIsNoAddress_matchesNoAddress(entry: String, host: String) {
    #expect(!NoProxyList(entry).matches(host))
  }

  // Found by the noproxy fuzz target (Fuzz/Findings/noproxy): it split into no parts and crashed.
  @Test(arguments: ["/", "///////", "example.com, /"])
  func anEntryOfSlashesAlone_matchesNoAddress(list: String) {
    #expect(!NoProxyList(list).matches("::0"))
    #expect(!NoProxyList(list).matches("10.0.0.1"))
  }

  @Test func cidr_fullLength_isThatOneAddress_andZero_isEveryAddress() {
    #expect(NoProxyList("10.0.0.7/32").matches("10.0.0.7"))
    #expect(!NoProxyList("10.0.0.7/32").matches("10.0.0.8"))
    #expect(NoProxyList("0.0.0.0/0").matches("203.0.113.9"))
    #expect(NoProxyList("::/0").matches("2001:db8::1"))
    #expect(!NoProxyList("0.0.0.0/33").matches("203.0.113.9"))
  }

  @Test func ipv6Network_neverMatchesAnIPv4Address() {
    #expect(!NoProxyList("fd00::/8").matches("253.1.2.3"))
    #expect(!NoProxyList("::/0").matches("10.0.0.1"))
  }

  @Test func ipv6Address_writtenInFull_matchesItsShortForm() {
    #expect(NoProxyList("2001:db8:0:0:0:0:0:1").matches("2001:db8::1"))
    #expect(!NoProxyList("2001:db8:0:0:0:0:0:1").matches("2001:db8::2"))
    #expect(!NoProxyList("2001:db8:0:0:0:0:0:1").matches("2001:db8::"))
  }

  /// RFC 4291 lets `::` stand for a single group of zeros too (RFC 5952 only advises against it).
  @Test func ipv6Address_withOneGroupShortened_matchesItsOtherForms() {
    #expect(NoProxyList("2001:db8:0:0:0:0::1").matches("2001:db8::1"))
    #expect(NoProxyList("2001:db8::1").matches("2001:db8:0:0:0:0::1"))
  }

  @Test func ipv6Network_comparesTheHighByteOfEachGroup() {
    #expect(NoProxyList("fd00::/8").matches("fd12::1"))
    #expect(!NoProxyList("fd00::/8").matches("fc00::1"))
  }
}
