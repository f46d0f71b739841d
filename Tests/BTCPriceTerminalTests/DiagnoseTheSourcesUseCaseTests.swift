import BTCPriceCore
import BTCPriceTerminal
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Diagnose the sources (btc-price doctor)", .hangLimit(.seconds(30)))
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

  @Test func text_saysEachSourceThenTheSettingsFilesAndLimitsInForce_thenTheVerdict() {
    let report = DoctorReport(
      checks: [
        makeSUT(.failed(.unreachable("host not found")), latency: .milliseconds(12)),
        DoctorCheck(
          source: "kraken", url: "https://api.kraken.com/x", route: "direct",
          outcome: .price(quote(at: Date(timeIntervalSince1970: 0))), latency: .milliseconds(40)),
      ],
      history: nil,
      settings: [.init(name: "proxy", value: "http://***@p:1", origin: "$https_proxy")],
      files: [
        .init(
          name: "cache", path: "/home/u/.cache/btc-price/last.json", health: "readable",
          ageSeconds: 90),
        .init(
          name: "state", path: "/home/u/.local/state/btc-price/limits.json",
          health: "absent", ageSeconds: nil),
      ],
      limits: ["binance: banned until 14:05:00 (418)"])

    #expect(
      report.text.components(separatedBy: "\n") == [
        "Sources, each asked once:",
        "  binance (https://api.binance.com/x), direct",
        "    proxy n/a, dns failed, connect -, tls -, http -, body -, price -",
        "    failed at dns: unreachable: host not found in 12 ms",
        "    advice: no source's host name could be found — is this machine offline? Behind a "
          + "company firewall, set --proxy (or $https_proxy)",
        "  kraken (https://api.kraken.com/x), direct",
        "    proxy n/a, dns ok, connect ok, tls ok, http ok, body ok, price ok",
        "    price 68901.23 USD in 40 ms",
        "Price history: off (no-history)",
        "Settings in effect:",
        "  proxy: http://***@p:1 ($https_proxy)",
        "Files:",
        "  cache: /home/u/.cache/btc-price/last.json: readable, 90 s old",
        "  state: /home/u/.local/state/btc-price/limits.json: absent",
        "Limits in force:",
        "  binance: banned until 14:05:00 (418)",
        "Verdict: a price from kraken.",
        "",
      ])
  }

  @Test func text_withNoLimitInForce_saysNone() {
    let report = DoctorReport(checks: [], settings: [], files: [], limits: [])

    #expect(report.text.contains("Limits in force:\n  none\nVerdict: no source gave a price.\n"))
  }

  @Test func json_ofAReportWithAPrice_isOK_withSortedKeysAndPlainSlashes() {
    let report = DoctorReport(
      checks: [makeSUT(.price(quote(at: Date(timeIntervalSince1970: 0))), latency: nil)],
      history: nil, settings: [], files: [], limits: [])

    #expect(
      report.json
        == #"{"files":[],"limits":[],"ok":true,"settings":[],"sources":[{"price":"68901.23","#
        + #""route":"direct","source":"binance","steps":{"body":"ok","connect":"ok","dns":"ok","#
        + #""http":"ok","price":"ok","proxy":"n/a","tls":"ok"},"url":"https://api.binance.com/x","#
        + #""verdict":"price 68901.23 USD"}],"streams":[]}"# + "\n")
  }

  private func makeSUT(
    _ outcome: DoctorCheck.Outcome, url: String = "https://api.binance.com/x",
    route: String = "direct", latency: Duration? = .milliseconds(40)
  ) -> DoctorCheck {
    DoctorCheck(source: "binance", url: url, route: route, outcome: outcome, latency: latency)
  }

}
