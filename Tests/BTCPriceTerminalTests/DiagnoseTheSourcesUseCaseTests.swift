import BTCPriceCore
import BTCPriceTerminal
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Diagnose the sources (btc-price doctor)")
struct DiagnoseTheSourcesUseCaseTests {
  @Test func price_passesEveryStep() {
    let check = makeSUT(.price(quote(at: Date(timeIntervalSince1970: 0))))
    #expect(check.steps.map(\.state) == [.notApplicable, .ok, .ok, .ok, .ok, .ok, .ok])
    #expect(check.verdict == "price 68901.23 USD")
    #expect(check.advice == nil)
  }

  @Test(arguments: [
    (PriceSourceError.unreachable("host not found"), DoctorCheck.Step.dns),
    (.unreachable("connection refused"), .connect),
    (.timedOut(after: .seconds(1)), .connect),
    (.unreachable("TLS failure: the certificate expired on 2021-01-01"), .tls),
    (.unreachable("the proxy http://p:1 refused to connect to the source (403)"), .proxy),
    (.httpStatus(451, message: nil), .http),
    (.invalidData("no price"), .body),
  ])
  func failure_isPlacedAtItsStep(error: PriceSourceError, step: DoctorCheck.Step) {
    let check = makeSUT(.failed(error), route: "through http://p:1 (from $https_proxy)")
    #expect(check.failedStep == step)
    let states = Dictionary(uniqueKeysWithValues: check.steps.map { ($0.step, $0.state) })
    #expect(states[step] == .failed)
    #expect(states[.price] == .notReached)
  }

  @Test func plainHTTPDirect_hasNoProxyNorTLSStep() {
    let check = makeSUT(.failed(.httpStatus(500, message: nil)), url: "http://127.0.0.1:1/x")
    #expect(
      check.steps.map(\.state) == [
        .notApplicable, .ok, .ok, .notApplicable, .failed, .notReached, .notReached,
      ])
  }

  @Test func reportExitsZeroOnlyWithAPrice() {
    let failing = makeSUT(.failed(.unreachable("host not found")))
    let banned = makeSUT(.notAsked("resting for 2 min"))
    #expect(
      DoctorReport(checks: [failing, banned], settings: [], files: [], limits: []).exitStatus == 1)
    #expect(
      DoctorReport(
        checks: [failing, makeSUT(.price(quote(at: Date(timeIntervalSince1970: 0))))], settings: [],
        files: [], limits: []
      )
      .exitStatus == 0)
  }

  @Test func json_carriesEachSourcesStepsVerdictAndAdvice() throws {
    let report = DoctorReport(
      checks: [makeSUT(.failed(.unreachable("host not found")), latency: .milliseconds(12))],
      settings: [.init(name: "proxy", value: "http://***@p:1", origin: "$https_proxy")],
      files: [], limits: [])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
    #expect(object["ok"] as? Bool == false)
    let source = try #require((object["sources"] as? [[String: Any]])?.first)
    #expect(source["latencyMilliseconds"] as? Int == 12)
    #expect((source["steps"] as? [String: String])?["dns"] == "failed")
    #expect((source["advice"] as? String)?.contains("--proxy") == true)
    #expect(!report.json.contains("secret"))
  }

  private func makeSUT(
    _ outcome: DoctorCheck.Outcome, url: String = "https://api.binance.com/x",
    route: String = "direct", latency: Duration? = .milliseconds(40)
  ) -> DoctorCheck {
    DoctorCheck(source: "binance", url: url, route: route, outcome: outcome, latency: latency)
  }

}
