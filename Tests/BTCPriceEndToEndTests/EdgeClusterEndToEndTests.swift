import BTCPriceTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `btc-price publish`, the built binary, against the fake exchange, publishing to real nginx +
/// nchan edges that share a real Redis (`scripts/edge-cluster`). Every process a test starts is
/// ended when it ends, failed or not (`defer`, and the cluster script ends with the test process).
extension BinaryEndToEndTests {
  @Suite(
    "btc-price publish to nginx + nchan edges", .serialized,
    .enabled(if: EdgeCluster.isInstalled, "needs nginx-light, libnginx-mod-nchan, redis-server"),
    .timeLimit(.minutes(2)), .hangLimit(.seconds(60)))
  final class EdgeClusterEndToEndTests {
    static let credentials = "publisher:s3cret-pw"

    @Test func viewersOnTwoEdges_getEveryTick_andThePasswordIsNeverPrinted() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))
        let cluster = try await EdgeCluster(edges: 2, credentials: Self.credentials)
        defer { cluster.stop() }
        let viewers = cluster.edges.map { StreamViewer($0 + "/api/stream") }
        try await Task.sleep(for: .milliseconds(300))
        let publisher = try publish(server, cluster.publishURLs, "--verbose")
        defer { publisher.send(SIGKILL) }

        #expect(await viewers[0].waitForEvents(6))
        #expect(await viewers[1].waitForEvents(6))
        publisher.send(SIGTERM)
        #expect(await publisher.waitForExit() == 0)
        try await Task.sleep(for: .milliseconds(500))

        let published = publisher.stderrText.matches(of: #/publish: tick \d+ → /#).count
        #expect(viewers[0].events.count == published)
        #expect(viewers[0].events.map(\.data) == viewers[1].events.map(\.data))
        #expect(viewers[0].events.allSatisfy { $0.event == "price" })
        #expect(viewers[0].events.first?.data.contains(#""price":"68901.23""#) == true)
        #expect(!publisher.stderrText.contains("s3cret-pw"), "\(publisher.stderrText)")
        #expect(publisher.stderrText.contains("publish: to http://***@127.0.0.1:"))
      }
    }

    @Test func aViewerMovingToTheOtherEdge_withItsLastEventID_missesNothing() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))
        let cluster = try await EdgeCluster(edges: 2, credentials: Self.credentials)
        defer { cluster.stop() }
        let reference = StreamViewer(cluster.edges[0] + "/api/stream")
        try await Task.sleep(for: .milliseconds(300))
        let publisher = try publish(server, cluster.publishURLs)
        defer { publisher.send(SIGKILL) }

        let moving = StreamViewer(cluster.edges[0] + "/api/stream")
        #expect(await moving.waitForEvents(2))
        moving.close()
        let last = try #require(moving.events.last)
        // Ticks go on while it is away.
        #expect(await reference.waitForEvents(reference.events.count + 3))
        let resumed = StreamViewer(cluster.edges[1] + "/api/stream", lastEventID: last.id)
        #expect(await resumed.waitForEvents(4))

        let all = reference.events.map(\.data)
        let start = try #require(all.firstIndex(of: last.data))
        #expect(Array(resumed.events.map(\.data).prefix(4)) == Array(all[(start + 1)...].prefix(4)))
      }
    }

    @Test func anEdgeKilled_leavesTheOtherEdgesViewersUntouched_andThePublisherGoesOn() async throws
    {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))
        let cluster = try await EdgeCluster(edges: 2, credentials: Self.credentials)
        defer { cluster.stop() }
        let survivor = StreamViewer(cluster.edges[1] + "/api/stream")
        try await Task.sleep(for: .milliseconds(300))
        let publisher = try publish(server, cluster.publishURLs, "--verbose")
        defer { publisher.send(SIGKILL) }
        #expect(await survivor.waitForEvents(3))

        cluster.kill(edge: 0)
        let atKill = survivor.events.count
        #expect(await survivor.waitForEvents(atKill + 6))
        #expect(!survivor.ended)
        publisher.send(SIGTERM)
        _ = await publisher.waitForExit()
        try await Task.sleep(for: .milliseconds(500))

        // Every tick published reached the survivor; at most one tick was lost with the edge.
        let published = publisher.stderrText.matches(of: #/publish: tick \d+ → /#).count
        let dropped = publisher.stderrText.matches(of: #/publish: no edge took tick/#).count
        #expect(survivor.events.count == published)
        #expect(dropped <= 1)
        #expect(publisher.stderrText.contains("the next edge takes the ticks"))
        #expect(publisher.stderrText.contains("→ http://***@\(cluster.edges[1].dropFirst(7))/pub"))
      }
    }

    @Test func redisRestarted_theEdgesAndThePublisherRecover_withoutARestartOfTheirOwn()
      async throws
    {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))
        let cluster = try await EdgeCluster(edges: 2, credentials: Self.credentials)
        defer { cluster.stop() }
        let publisher = try publish(server, cluster.publishURLs)
        defer { publisher.send(SIGKILL) }
        let before = StreamViewer(cluster.edges[1] + "/api/stream")
        #expect(await before.waitForEvents(2))

        try await cluster.restartRedis()
        await server.stub(.binance, .binance(price: "70000.00"))
        // Each edge serves the new ticks again, to a viewer that connects (as the page does
        // when its stream goes quiet): asked every 2 s, for at most 30 s.
        for edge in cluster.edges {
          let recovered = await becomesTrue(within: .seconds(30)) {
            let viewer = StreamViewer(edge + "/api/stream")
            defer { viewer.close() }
            return await viewer.waitForEvents(2, timeout: .seconds(2))
              && viewer.events.last?.data.contains(#""price":"70000""#) == true
          }
          #expect(recovered, "\(edge): \(publisher.stderrText)")
          let price = try await fetch(edge + "/api/price")
          #expect(price.body.contains(#""price":"70000""#), "\(price)")
        }
        #expect(publisher.isRunning)
      }
    }

    @Test func theStandby_staysQuietWhileTheActiveOnePublishes_andTakesOverWithinThreeIntervals()
      async throws
    {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))
        let cluster = try await EdgeCluster(edges: 2, credentials: Self.credentials)
        defer { cluster.stop() }
        let active = try publish(server, cluster.publishURLs)
        defer { active.send(SIGKILL) }
        let viewer = StreamViewer(cluster.edges[0] + "/api/stream")
        #expect(await viewer.waitForEvents(2))
        let standby = try publish(server, cluster.publishURLs.reversed(), "--standby")
        defer { standby.send(SIGKILL) }
        try await Task.sleep(for: .seconds(1))

        // Both run: one event per tick, not two.
        let start = (viewer.events.count, ContinuousClock.now)
        try await Task.sleep(for: .seconds(3))
        let perTick =
          Double(viewer.events.count - start.0)
          / ((ContinuousClock.now - start.1) / .milliseconds(500))
        #expect(perTick < 1.3, "\(perTick) events per tick")
        #expect(!standby.stderrText.contains("publishes now"), "\(standby.stderrText)")

        active.send(SIGTERM)
        _ = await active.waitForExit()
        let silenced = (viewer.events.count, ContinuousClock.now)
        #expect(await viewer.waitForEvents(silenced.0 + 1, timeout: .seconds(10)))
        let gap = ContinuousClock.now - silenced.1
        // Three intervals of 0.5 s at most, and a loaded machine's margin.
        #expect(gap < .milliseconds(1_500) + .milliseconds(1_500), "took over after \(gap)")
        #expect(standby.stderrText.contains("this standby publishes now"), "\(standby.stderrText)")
      }
    }

    @Test func aPublishURLAnswering4xx_isAConfigurationErrorSaidOnce_notRetriedEveryTick()
      async throws
    {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))
        let cluster = try await EdgeCluster(edges: 1, credentials: Self.credentials)
        defer { cluster.stop() }
        let wrong =
          cluster.edges[0].replacingOccurrences(of: "http://", with: "http://publisher:wrong@")
          + "/pub"
        let publisher = try publish(server, [wrong], "--verbose")
        defer { publisher.send(SIGKILL) }
        #expect(
          await becomesTrue { publisher.stderrText.matches(of: #/no edge took tick/#).count >= 5 })
        publisher.send(SIGTERM)
        _ = await publisher.waitForExit()

        let said = publisher.stderrText.matches(of: #/answered HTTP 401: a configuration error/#)
        #expect(said.count == 1, "\(publisher.stderrText)")
        #expect(publisher.stderrText.contains("publish: http://***@127.0.0.1:"))
        #expect(!publisher.stderrText.contains("wrong"))
      }
    }

    @Test func anEdge_answersServesPathsWithServesBytes() async throws {
      try await FakeExchangeServer.withRunning { server in
        await server.stub(.binance, .binance(price: "68901.23"))
        let cluster = try await EdgeCluster(edges: 1, credentials: Self.credentials)
        defer { cluster.stop() }
        let publisher = try publish(server, cluster.publishURLs)
        defer { publisher.send(SIGKILL) }
        let serve = try BinaryProcess(
          ["serve", "--port", "0", "--sources", "binance", "--no-cache", "--interval", "0.5"]
            + server.urlArguments)
        defer { serve.send(SIGKILL) }
        #expect(await serve.waitForLines(1))
        let serveBase = try #require(serve.serveAddress)
        let edge = cluster.edges[0]
        #expect(
          await becomesTrue {
            (try? await fetch(edge + "/api/price").body.contains("68901.23")) == true
          })
        #expect(
          await becomesTrue {
            (try? await fetch(serveBase + "/api/price").body.contains("68901.23")) == true
          })

        for path in [
          "/", "/api/price", "/app.js", "/app.css", "/icon.svg", "/manifest.webmanifest",
          "/healthz", "/nothing-here",
        ] {
          let (fromEdge, fromServe) = (
            try await fetch(edge + path), try await fetch(serveBase + path)
          )
          #expect(fromEdge.status == fromServe.status, "\(path)")
          for name in Self.comparedHeaders {
            #expect(fromEdge.headers[name] == fromServe.headers[name], "\(path): \(name)")
          }
          if !["/", "/api/price"].contains(path) {
            #expect(fromEdge.body == fromServe.body, "\(path)")
          } else {
            let (edgeLines, serveLines) = (
              fromEdge.body.replacing(Self.changing, with: "…").split(separator: "\n"),
              fromServe.body.replacing(Self.changing, with: "…").split(separator: "\n")
            )
            let differing = zip(edgeLines, serveLines).first { $0 != $1 }
            #expect(
              edgeLines.count == serveLines.count && differing == nil,
              "\(path): edge \(differing?.0 ?? "") ≠ serve \(differing?.1 ?? "")")
          }
        }

        // The ETag, and If-None-Match in every form a client sends it back.
        let price = try await fetch(edge + "/api/price")
        let tag = try #require(price.headers["etag"])
        #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""))
        for condition in [tag, "W/" + tag, "*"] {
          let again = try await fetch(edge + "/api/price", headers: [("If-None-Match", condition)])
          #expect(again.status == 304 || again.headers["etag"] != tag, "\(condition)")
        }
        #expect(
          try await fetch(edge + "/api/price", headers: [("If-None-Match", "\"1:0\"")]).status
            == 200)

        // curl -N, without Accept: text/event-stream, gets the stream too.
        let plain = StreamViewer(edge + "/api/stream", accept: nil)
        #expect(await plain.waitForEvents(1))
        #expect(plain.events.first?.event == "price")
      }
    }

    @Test func doctor_saysWhereAPublisherWouldPublish_andHowEachEdgeAnswers() async throws {
      let cluster = try await EdgeCluster(edges: 1, credentials: Self.credentials)
      defer { cluster.stop() }
      let wrong = cluster.edges[0].replacing("http://", with: "http://publisher:bad-pw-7@") + "/pub"
      let doctor = try BinaryProcess(
        ["doctor", "--sources", "binance", "--no-cache", "--binance-url", "http://127.0.0.1:9/"],
        environment: ["BTC_PRICE_PUBLISH_URLS": cluster.publishURLs[0] + " " + wrong])
      _ = await doctor.waitForExit()
      let output = doctor.stdoutText.joined(separator: "\n")

      let host = cluster.edges[0].dropFirst("http://".count)
      #expect(output.contains("http://***@\(host)/pub: takes publishes"), "\(output)")
      #expect(output.contains("http://***@\(host)/pub: HTTP 401"), "\(output)")
      #expect(!output.contains("s3cret-pw") && !output.contains("bad-pw-7"))
    }

    /// What differs between two runs of the same price: when it was received, the event's id.
    /// What differs between two runs of the same price: when it was received, the event's id,
    /// the change since the tick before, how many ticks the sparkline draws.
    static var changing: some RegexComponent {
      #/(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z|[A-Z][a-z]{2} \d+, \d\d:\d\d:\d\d UTC|data-event-id="\d+"|points="[^"]*"|sparkline(&quot;|")?:(&quot;|")[^&"]*|last \d+ ticks|change(&quot;|")?:(&quot;|")[^&"]*|class="change">[^<]*|data-direction="\w+"|direction(&quot;|")?:(&quot;|")\w+)/#
    }

    static let comparedHeaders = [
      "content-type", "cache-control", "access-control-allow-origin", "content-security-policy",
      "x-content-type-options", "referrer-policy", "x-frame-options", "permissions-policy",
      "cross-origin-opener-policy",
    ]

    private func publish(_ server: FakeExchangeServer, _ urls: [String], _ extra: String...) throws
      -> BinaryProcess
    {
      try BinaryProcess(
        ["publish", "--sources", "binance", "--no-cache", "--interval", "0.5"] + extra + urls
          + server.urlArguments)
    }
  }
}
