import BTCPriceCore
import BTCPriceFeature
import BTCPriceServer
import BTCPriceTerminal
import BTCPriceTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Testing

@Suite("Serve the price over HTTP", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct ServeRoutesTests {
  // MARK: The page

  @Test func page_hasTheCurrentPriceTimeAndSourceInTheHTML() async throws {
    let (client, broadcaster) = makeSUT()
    broadcaster.publish(fresh("68901.23"))

    let response = try await client.execute(uri: "/", method: .get)
    let html = String(buffer: response.body)
    #expect(response.status == .ok)
    #expect(response.headers[.contentType] == "text/html; charset=utf-8")
    #expect(html.contains(#"<p id="price" class="price">$68,901.23</p>"#))
    #expect(
      html.contains(
        #"<span id="updated-text">Last updated</span> <time id="time" datetime="2026-11-22T14:03:05Z">Nov 22, 14:03:05 UTC</time>"#
      ), "\(html)")
    #expect(html.contains(#"<span id="source">from Binance</span>"#))
    #expect(html.contains(#"<p id="banner" class="banner" hidden>"#))
    #expect(html.contains(#"data-state="fresh""#))
  }

  @Test func page_whenStale_showsTheBannerWithTheExactWordingAndTheLastValue() async throws {
    let (client, broadcaster) = makeSUT()
    broadcaster.publish(fresh("68901.23"))
    broadcaster.publish(stale(quote("68901.23")))

    let response = try await client.execute(uri: "/", method: .get)
    let html = String(buffer: response.body)
    #expect(html.contains(#"<p id="price" class="price">$68,901.23</p>"#))
    #expect(
      html.contains(
        #"<p id="banner" class="banner"><span id="banner-text">Failed to update value. Displaying last updated value from</span> <time id="banner-time" datetime="2026-11-22T14:03:05Z">Nov 22, 14:03:05 UTC</time></p>"#
      ), "\(html)")
    #expect(html.contains(#"data-state="stale""#))
  }

  @Test func page_withNothingKnown_showsDashes() async throws {
    let (client, _) = makeSUT()

    let html = String(buffer: try await client.execute(uri: "/", method: .get).body)
    #expect(html.contains(#"<p id="price" class="price">-</p>"#))
    #expect(
      html.contains(#"<span id="updated-text">Last updated</span> <time id="time">-</time>"#))
    #expect(html.contains(#"data-state="empty""#))
  }

  @Test(arguments: [(Currency.usd, "USD"), (Currency.eur, "EUR")])
  func manifest_namesTheRunsCurrency(currency: Currency, code: String) async throws {
    let server = PriceServer(
      broadcaster: PriceBroadcaster(initial: nothingKnown),
      metrics: ServerMetrics(sources: [.binance]), currency: currency)

    let client = RouterTester(server.makeRouter())
    let body = String(
      buffer: try await client.execute(uri: "/manifest.webmanifest", method: .get).body)
    #expect(body.contains(#""description":"The Bitcoin price in \#(code), live.""#), "\(body)")
    #expect(body.contains(##""background_color":"#0d1117""##))
  }

  @Test func page_escapesEverythingThatComesFromOutside() async throws {
    let (client, broadcaster) = makeSUT()
    broadcaster.publish(
      stale(
        quote("1.00", source: PriceSource(id: "x\"><script>", displayName: "<b>evil</b>")),
        reason: .invalidData("</script><script>alert(1)</script>")))

    let html = String(buffer: try await client.execute(uri: "/", method: .get).body)
    #expect(!html.contains("<b>evil"))
    #expect(!html.contains("<script>alert"))
    #expect(!html.contains("x\"><script>"))
    #expect(html.contains("&lt;b&gt;evil&lt;/b&gt;"))
    // The only script is the page's own file.
    #expect(html.components(separatedBy: "<script").count == 2)
    #expect(html.contains(#"<script src="/app.js" defer></script>"#))
  }

  @Test func page_drawsTheSparklineOfRecentFreshValues() async throws {
    let (client, broadcaster) = makeSUT()
    broadcaster.publish(fresh("100.00"))
    broadcaster.publish(stale(quote("100.00")))
    broadcaster.publish(fresh("200.00"))

    let html = String(buffer: try await client.execute(uri: "/", method: .get).body)
    #expect(html.contains(#"points="0.0,95.0 600.0,5.0""#), "\(html)")
    #expect(html.contains(#"aria-label="Price over the last 2 ticks""#))
    #expect(html.contains(#"data-direction="up""#))
    #expect(html.contains("▲ +$100.00"))
  }

  @Test func pageFiles_areServedWithTheirTypes() async throws {
    let (client, _) = makeSUT()
    let files = [
      ("/app.js", "text/javascript; charset=utf-8"),
      ("/app.css", "text/css; charset=utf-8"),
      ("/icon.svg", "image/svg+xml"),
      ("/manifest.webmanifest", "application/manifest+json"),
    ]

    for (path, type) in files {
      let response = try await client.execute(uri: path, method: .get)
      #expect(response.status == .ok, "\(path)")
      #expect(response.headers[.contentType] == type, "\(path)")
      #expect(response.body.readableBytes > 100, "\(path)")
    }
    let manifest = try await client.execute(uri: "/manifest.webmanifest", method: .get).body
    let object =
      try JSONSerialization.jsonObject(with: Data(String(buffer: manifest).utf8))
      as? [String: Any]
    #expect(object?["start_url"] as? String == "/")
  }

  // MARK: The API

  @Test(arguments: [false, true])
  func apiPrice_isExactlyTheJSONLine(stale isStale: Bool) async throws {
    let (client, broadcaster) = makeSUT()
    let state = isStale ? stale(quote("68901.23")) : fresh("68901.23")
    broadcaster.publish(state)

    let response = try await client.execute(uri: "/api/price", method: .get)
    #expect(response.status == .ok)
    #expect(String(buffer: response.body) == JSONLineRenderer.render(state) + "\n")
    #expect(response.headers[.contentType] == "application/json")
    #expect(response.headers[.cacheControl] == "public, max-age=1")
    // A strong tag: 16 hexadecimal digits (the body's 64-bit hash, zeros kept) in quotes.
    let tag = try #require(response.headers[.eTag])
    #expect(tag.wholeMatch(of: /"[0-9a-f]{16}"/) != nil, "\(tag)")
  }

  @Test func apiPrice_answersNotModifiedToItsOwnETag_andOKOnceTheValueChanges() async throws {
    let (client, broadcaster) = makeSUT()
    broadcaster.publish(fresh("68901.23"))

    let first = try await client.execute(uri: "/api/price", method: .get)
    let tag = try #require(first.headers[.eTag])

    let again = try await client.execute(
      uri: "/api/price", method: .get, headers: [.ifNoneMatch: tag])
    #expect(again.status == .notModified)
    #expect(again.body.readableBytes == 0)
    #expect(again.headers[.eTag] == tag)
    #expect(again.headers[.contentType] == nil, "a 304 carries no body to type")

    broadcaster.publish(fresh("68902.00"))
    let changed = try await client.execute(
      uri: "/api/price", method: .get, headers: [.ifNoneMatch: tag])
    #expect(changed.status == .ok)
    #expect(changed.headers[.eTag] != tag)
  }

  /// `If-None-Match` as caches and proxies send it: nginx's gzip turns our strong tag into a
  /// weak one, and a cache holding several versions sends them all (RFC 9110, 13.1.2). `TAG`
  /// stands for the tag the first answer carried.
  @Test(arguments: [
    ("W/TAG", true),
    (#""0000000000000000", TAG"#, true),
    (#""00000000", W/TAG, "x""#, true),
    (#""a",TAG"#, true),
    ("*", true),
    (#""0000000000000000""#, false),
    (#"W/"0000000000000000""#, false),
    (#""a", W/"b""#, false),
  ])
  func apiPrice_answersNotModifiedToEveryFormOfItsTag(_ condition: String, notModified: Bool)
    async throws
  {
    let (client, broadcaster) = makeSUT()
    broadcaster.publish(fresh("68901.23"))

    let first = try await client.execute(uri: "/api/price", method: .get)
    let tag = try #require(first.headers[.eTag])

    let again = try await client.execute(
      uri: "/api/price", method: .get,
      headers: [.ifNoneMatch: condition.replacingOccurrences(of: "TAG", with: tag)])

    #expect(again.status == (notModified ? .notModified : .ok))
  }

  @Test func apiPrice_answersOKToItsTagWithoutTheQuotes() async throws {
    let (client, broadcaster) = makeSUT()
    broadcaster.publish(fresh("68901.23"))

    let first = try await client.execute(uri: "/api/price", method: .get)
    let tag = try #require(first.headers[.eTag])

    let again = try await client.execute(
      uri: "/api/price", method: .get, headers: [.ifNoneMatch: String(tag.dropFirst().dropLast())]
    )

    #expect(again.status == .ok)
  }

  // The stream is written to the connection itself (see LoopFanout), so its tests need a live
  // server; RouterTester sees only what goes through the response writer.

  @Test func apiStream_sendsOnePriceEventPerTickWithItsID() async throws {
    let (app, broadcaster, server) = makeLiveSUT()
    broadcaster.publish(fresh("68901.23"))

    try await withRunningApplication(app) { port in
      let body = try await streamBody(port, server) {
        broadcaster.publish(fresh("68902.00"))
        broadcaster.heartbeat()
      }
      let data = broadcaster.recent.map(\.data)
      #expect(data.count == 3)
      #expect(data[1].hasPrefix(String(JSONLineRenderer.render(fresh("68901.23")).dropLast())))
      let expected =
        "id: 1\nevent: price\ndata: \(data[1])\n\n"
        + "id: 2\nevent: price\ndata: \(data[2])\n\n"
        + ": heartbeat\n\n"
      #expect(body.contains(#/^retry: \d{4}\n\n/#))
      #expect(body.replacing(#/^retry: \d{4}\n\n/#, with: "") == expected)
    }
  }

  @Test func apiStream_resumesAfterLastEventID() async throws {
    let (app, broadcaster, server) = makeLiveSUT()
    for price in ["1.00", "2.00", "3.00", "4.00"] { broadcaster.publish(fresh(price)) }

    try await withRunningApplication(app) { port in
      let body = try await streamBody(port, server, lastEventID: "2") {}
      let ids = body.matches(of: #/id: (\d+)\n/#).map { String($0.1) }
      #expect(ids == ["3", "4"])
    }
  }

  @Test func apiStream_hasTheEventStreamHeaders() async throws {
    let server = PriceServer(
      broadcaster: PriceBroadcaster(initial: nothingKnown),
      metrics: ServerMetrics(sources: [.binance]))
    let client = RouterTester(server.makeRouter())

    let response = try await client.execute(uri: "/api/stream", method: .head)
    #expect(response.status == .ok)
    #expect(response.headers[.contentType] == "text/event-stream; charset=utf-8")
    #expect(response.headers[.cacheControl] == "no-cache, no-transform")
    #expect(response.headers[.init("X-Accel-Buffering")!] == "no")
    #expect(response.body.readableBytes == 0)
    // HEAD never joins the stream.
    #expect(server.viewerCount == 0)
  }

  /// What the page writes from data is escaped for text and for attribute values in either
  /// quote.
  @Test func html_escapesEveryCharacterThatCouldEndATextOrAnAttribute() {
    #expect(
      HTML.escape(#"<a href="x" title='y'>Tom & Jerry</a>"#)
        == "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;")
    #expect(HTML.escape("₿ 68 901,23 – ok") == "₿ 68 901,23 – ok")
  }

  @Test func metrics_namesEverySeries() async throws {
    let (client, broadcaster) = makeSUT()
    broadcaster.publish(fresh("68901.23"))

    let response = try await client.execute(uri: "/metrics", method: .get)
    let text = String(buffer: response.body)
    #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
    for name in ServerMetrics.names {
      #expect(text.contains("# TYPE \(name) "), "\(name) missing from\n\(text)")
    }
    // Every series is there at 0 from the start, so a dashboard's rate has a first point.
    for line in [
      #"btc_price_source_attempts_total{source="binance"} 0"#,
      #"btc_price_source_failures_total{source="binance"} 0"#,
      #"btc_price_source_breaker_state{source="coinbase"} 0.0"#,
      "btc_price_ticks_total 0", "btc_price_failed_ticks_total 0",
      "btc_price_viewers_dropped_total 0",
      #"btc_price_alert_webhook_total{outcome="delivered"} 0"#,
      #"btc_price_alert_webhook_total{outcome="failed"} 0"#,
      #"btc_price_alert_webhook_total{outcome="dropped"} 0"#,
    ] {
      #expect(text.split(separator: "\n").contains(Substring(line)), "\(line) not in\n\(text)")
    }
  }

  /// Every series a dashboard graphs: ticks and the failed ones, each webhook outcome, viewers
  /// dropped and connected, each breaker phase as its number, and the shown value's age (never
  /// below zero; not a number while nothing is known).
  @Test func metrics_countTicksWebhooksViewersAndEachBreakerPhase_andTheShownValuesAge() {
    let now = receivedAt.addingTimeInterval(5)
    let metrics = ServerMetrics(sources: [.binance], now: { now })
    metrics.recordTick(fresh("68901.23"))
    metrics.recordTick(stale(quote("68901.23")))
    metrics.recordTick(fresh("68901.24"))
    metrics.recordAlertWebhook("delivered")
    metrics.recordAlertWebhook("failed")
    metrics.recordAlertWebhook("failed")
    metrics.viewerDropped()
    metrics.record(.circuitChanged(.binance, CircuitTransition(from: .open, to: .halfOpen)))
    let broadcaster = PriceBroadcaster(initial: nothingKnown)

    var text = metrics.render(latest: broadcaster.publish(fresh("68901.23")), viewers: 7)
    for line in [
      "btc_price_ticks_total 3", "btc_price_failed_ticks_total 1",
      #"btc_price_alert_webhook_total{outcome="delivered"} 1"#,
      #"btc_price_alert_webhook_total{outcome="failed"} 2"#,
      #"btc_price_alert_webhook_total{outcome="dropped"} 0"#,
      "btc_price_viewers_dropped_total 1", "btc_price_viewers 7.0",
      #"btc_price_source_breaker_state{source="binance"} 1.0"#,
      "btc_price_shown_value_age_seconds 5.0",
    ] {
      #expect(text.split(separator: "\n").contains(Substring(line)), "\(line) not in\n\(text)")
    }

    metrics.record(.circuitChanged(.binance, CircuitTransition(from: .halfOpen, to: .closed)))
    let ahead = fresh("68901.23", at: now.addingTimeInterval(2))
    text = metrics.render(latest: broadcaster.publish(ahead), viewers: 0)
    #expect(text.contains(#"btc_price_source_breaker_state{source="binance"} 0.0"#), "\(text)")
    #expect(text.contains("btc_price_shown_value_age_seconds 0.0"), "a clock behind: \(text)")

    text = metrics.render(latest: PriceBroadcaster(initial: nothingKnown).latest, viewers: 0)
    #expect(text.contains("btc_price_shown_value_age_seconds nan"), "\(text)")
  }

  @Test func metrics_countSourceAttemptsFailuresAndBreakers() {
    let metrics = ServerMetrics(sources: [.binance, .coinbase])
    metrics.record(.failed(.binance, .timedOut(after: .milliseconds(800)), latency: .zero))
    metrics.record(.delivered(.coinbase, quote("1.00", source: .coinbase), latency: .zero))
    metrics.record(.circuitChanged(.binance, CircuitTransition(from: .closed, to: .open)))

    let text = metrics.render(latest: PriceBroadcaster(initial: nothingKnown).latest, viewers: 0)

    #expect(text.contains(#"btc_price_source_attempts_total{source="binance"} 1"#), "\(text)")
    #expect(text.contains(#"btc_price_source_failures_total{source="binance"} 1"#))
    #expect(text.contains(#"btc_price_source_attempts_total{source="coinbase"} 1"#))
    #expect(text.contains(#"btc_price_source_failures_total{source="coinbase"} 0"#))
    #expect(text.contains(#"btc_price_source_breaker_state{source="binance"} 2"#))
  }

  @Test func metrics_countEachDroppedViewerWhenItIsDropped_notAtEachScrape() {
    let metrics = ServerMetrics(sources: [.binance])
    let latest = PriceBroadcaster(initial: nothingKnown).latest

    metrics.viewerDropped()
    metrics.viewerDropped()
    _ = metrics.render(latest: latest, viewers: 5)
    metrics.viewerDropped()
    let text = metrics.render(latest: latest, viewers: 3)

    #expect(text.contains("# TYPE btc_price_viewers_dropped_total counter"), "\(text)")
    #expect(text.contains("btc_price_viewers_dropped_total 3\n"), "\(text)")
    #expect(text.contains("btc_price_viewers 3.0\n"), "\(text)")
  }

  @Test func healthz_saysOK() async throws {
    let (client, _) = makeSUT()

    let response = try await client.execute(uri: "/healthz", method: .get)
    #expect(response.status == .ok)
    #expect(String(buffer: response.body) == "ok\n")
  }

  // MARK: Abuse

  @Test func unknownPath_isNotFound() async throws {
    let (client, _) = makeSUT()

    let response = try await client.execute(uri: "/wp-admin.php", method: .get)
    #expect(response.status == .notFound)
    #expect(String(buffer: response.body) == "404 Not Found\n")
  }

  @Test(arguments: [HTTPRequest.Method.post, .put, .delete, .patch, .options])
  func otherMethods_areNotAllowed(method: HTTPRequest.Method) async throws {
    let (client, _) = makeSUT()

    for path in ["/", "/api/price", "/nowhere"] {
      let response = try await client.execute(uri: path, method: method)
      #expect(response.status == .methodNotAllowed, "\(method) \(path)")
      #expect(response.headers[.allow] == "GET, HEAD")
    }
  }

  @Test func head_hasTheHeadersOfGETWithoutABody() async throws {
    let (client, broadcaster) = makeSUT()
    broadcaster.publish(fresh("68901.23"))

    let response = try await client.execute(uri: "/api/price", method: .head)
    #expect(response.status == .ok)
    #expect(response.headers[.eTag] != nil)
    #expect(response.body.readableBytes == 0)
  }

  @Test func everyResponse_carriesTheSecurityHeaders() async throws {
    let (client, _) = makeSUT()

    let requests: [(String, HTTPRequest.Method)] = [
      ("/", .get), ("/api/price", .get), ("/app.js", .get), ("/metrics", .get),
      ("/missing", .get), ("/", .post),
    ]
    for (path, method) in requests {
      let headers = try await client.execute(uri: path, method: method).headers
      #expect(
        headers[.contentSecurityPolicy]
          == "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
          + "connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; "
          + "frame-ancestors 'none'", "\(method) \(path)")
      #expect(headers[values: .contentSecurityPolicy].count == 1, "\(method) \(path)")
      #expect(headers[values: .xContentTypeOptions] == ["nosniff"])
      #expect(headers[.init("Referrer-Policy")!] == "no-referrer")
      #expect(headers[.init("X-Frame-Options")!] == "DENY")
      #expect(headers[.init("Permissions-Policy")!]?.contains("camera=()") == true)
    }
  }

  // MARK: -

  private func makeSUT() -> (RouterTester<RouterResponder<ServerRequestContext>>, PriceBroadcaster)
  {
    let broadcaster = PriceBroadcaster(initial: nothingKnown)
    let server = PriceServer(
      broadcaster: broadcaster,
      metrics: ServerMetrics(sources: [.binance, .coinbase]))
    return (RouterTester(server.makeRouter()), broadcaster)
  }

  private func makeLiveSUT() -> (some ApplicationProtocol, PriceBroadcaster, PriceServer) {
    let broadcaster = PriceBroadcaster(initial: nothingKnown)
    let server = PriceServer(
      broadcaster: broadcaster, metrics: ServerMetrics(sources: [.binance]))
    let app = server.makeApplication(
      configuration: .init(host: "127.0.0.1", port: 0), logger: Logger(label: "test"))
    return (app, broadcaster, server)
  }

  /// The whole body of a stream that runs `during` once it has joined, then ends because the
  /// broadcaster finishes: read to its last chunk (a stream cut before it throws).
  private func streamBody(
    _ port: Int, _ server: PriceServer, lastEventID: String? = nil,
    during: @Sendable @escaping () -> Void
  ) async throws -> String {
    let stream = try await HTTPStreamReader.open(
      "http://127.0.0.1:\(port)/api/stream",
      headers: lastEventID.map { [("Last-Event-ID", $0)] } ?? [])
    await eventually(within: .seconds(10)) { server.viewerCount == 1 }
    during()
    server.broadcaster.finish()
    return try await stream.collectText()
  }
}

extension HTTPField.Name {
  static let lastEventID = Self("Last-Event-ID")!
}
