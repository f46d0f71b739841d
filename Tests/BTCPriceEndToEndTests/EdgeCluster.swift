import BTCPriceCore
import BTCPriceRuntime
import BTCPriceTestSupport
import Foundation
import NIOCore
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `scripts/edge-cluster`: Redis and nginx + nchan edges from the shipped config, on free
/// loopback ports, ended (and its folder removed) by ``stop()`` or when this object goes, and by
/// the script itself when the test process goes.
final class EdgeCluster: @unchecked Sendable {
  static let script = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("scripts/edge-cluster").path

  /// The real engine is here: nginx, the nchan module and Redis (Debian's packages; `.ci/run`
  /// installs them).
  static var isInstalled: Bool {
    ["/usr/sbin/nginx", "/usr/lib/nginx/modules/ngx_nchan_module.so", "/usr/bin/redis-server"]
      .allSatisfy { FileManager.default.fileExists(atPath: $0) }
  }

  let run: BinaryProcess
  let edges: [String]
  let publishURLs: [String]

  init(edges count: Int, credentials: String? = nil) async throws {
    let extra = credentials.map { " --publish-credentials '\($0)'" } ?? ""
    run = try BinaryProcess.shell("exec python3 '\(Self.script)' --edges \(count)\(extra)")
    var ready = false
    for _ in 0..<200 where !ready {
      ready = run.stdoutText.contains("ready")
      if !ready { try await Task.sleep(for: .milliseconds(100)) }
    }
    guard ready else {
      run.send(SIGKILL)
      throw ClusterDidNotStart(stdout: run.stdoutText, stderr: run.stderrText)
    }
    let lines = run.stdoutText
    edges = lines.filter { $0.hasPrefix("edge ") }.map { String($0.dropFirst(5)) }
    publishURLs = lines.filter { $0.hasPrefix("publish ") }.map { String($0.dropFirst(8)) }
  }

  deinit {
    stop()
  }

  /// Kills one edge's nginx (its whole process group) at once, as a crash would.
  func kill(edge index: Int) {
    let prefix = "pid edge \(edges[index]) "
    guard let line = run.stdoutText.first(where: { $0.hasPrefix(prefix) }),
      let pid = Int32(line.dropFirst(prefix.count))
    else { return }
    killGroup(pid)
  }

  /// Restarts Redis on the same port; returns when it answers again.
  func restartRedis() async throws {
    let before = run.stdoutText.filter { $0 == "redis restarted" }.count
    run.send(SIGUSR1)
    for _ in 0..<100 {
      if run.stdoutText.filter({ $0 == "redis restarted" }).count > before { return }
      try await Task.sleep(for: .milliseconds(100))
    }
    throw ClusterDidNotStart(stdout: run.stdoutText, stderr: run.stderrText)
  }

  func stop() {
    guard run.isRunning else { return }
    run.send(SIGTERM)
  }

  /// Stops the cluster and waits until everything it started is gone.
  func stopAndWait() async {
    stop()
    _ = await run.waitForExit()
  }

  struct ClusterDidNotStart: Error {
    let stdout: [String]
    let stderr: String
  }
}

/// One EventSource viewer of an edge (or of serve): every event it got, as an SSE parser reads
/// them, and the comments.
final class StreamViewer: @unchecked Sendable {
  struct Event: Equatable {
    let id: String?
    let event: String?
    let data: String
  }

  private let received = Locked<(events: [Event], raw: String, ended: Bool)>(([], "", false))
  private var task: Task<Void, Never>?

  var events: [Event] { received.value.events }
  var raw: String { received.value.raw }
  var ended: Bool { received.value.ended }

  init(_ url: String, lastEventID: String? = nil, accept: String? = "text/event-stream") {
    let received = received
    task = Task {
      var headers: [(name: String, value: String)] = []
      if let accept { headers.append(("Accept", accept)) }
      if let lastEventID { headers.append(("Last-Event-ID", lastEventID)) }
      var pending = ""
      do {
        let stream = try await HTTPStreamReader.open(url, headers: headers)
        for try await chunk in stream.body {
          let text = String(buffer: chunk)
          pending += text
          var parsed: [Event] = []
          while let end = pending.range(of: "\n\n") {
            let block = pending[..<end.lowerBound]
            pending = String(pending[end.upperBound...])
            var (id, name, data): (String?, String?, [String]) = (nil, nil, [])
            for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
              if line.hasPrefix("id: ") { id = String(line.dropFirst(4)) }
              if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
              if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
            }
            if !data.isEmpty {
              parsed.append(Event(id: id, event: name, data: data.joined(separator: "\n")))
            }
          }
          received.withValue {
            $0.raw += text
            $0.events += parsed
          }
        }
      } catch {}
      received.withValue { $0.ended = true }
    }
  }

  deinit {
    task?.cancel()
  }

  func close() {
    task?.cancel()
  }

  /// Waits until the viewer has `count` events, at most `timeout`.
  @discardableResult
  func waitForEvents(_ count: Int, timeout: Duration = .seconds(15)) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while events.count < count, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(20))
    }
    return events.count >= count
  }
}

/// Waits until `condition` holds, at most `timeout`; the caller checks the answer.
func becomesTrue(within timeout: Duration = .seconds(15), _ condition: () async -> Bool) async
  -> Bool
{
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if await condition() { return true }
    try? await Task.sleep(for: .milliseconds(50))
  }
  return await condition()
}

/// `kill(2)` of a whole process group. At file scope because, inside `EdgeCluster`, the method
/// `kill(edge:)` hides the C function's name; a module-qualified `Glibc.kill` named a module
/// Darwin does not have (issue 49).
private func killGroup(_ pid: pid_t) {
  _ = kill(-pid, SIGKILL)
}
