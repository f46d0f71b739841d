import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// Runs `app` (its configuration names the address; port 0 for a free one) as a real server for
/// `body`, which gets the port it listens on; then shuts it down gracefully and waits until it
/// has. What HummingbirdTesting's live test framework does, without its client (tests connect
/// with ``HTTPStreamReader``, the product's HTTP client or raw sockets) and without taking over
/// SIGTERM and SIGINT. A stream still open keeps a graceful shutdown waiting: end it in `body`.
public func withRunningApplication<App: ApplicationProtocol, Result: Sendable>(
  _ app: App, _ body: (_ port: Int) async throws -> Result
) async throws -> Result {
  let (ports, reportPort) = AsyncStream.makeStream(of: Int.self)
  let group = ServiceGroup(
    configuration: .init(
      services: app.services + [
        PortReportingApplication(base: app, report: { reportPort.yield($0) })
      ],
      logger: app.logger))
  return try await withThrowingTaskGroup(of: Void.self) { tasks in
    tasks.addTask {
      defer { reportPort.finish() }
      try await group.run()
    }
    guard let port = await ports.first(where: { _ in true }) else {
      // It ended before it listened: its own error says why.
      try await tasks.waitForAll()
      throw ApplicationDidNotListen()
    }
    do {
      let result = try await body(port)
      await group.triggerGracefulShutdown()
      try await tasks.waitForAll()
      return result
    } catch {
      await group.triggerGracefulShutdown()
      throw error
    }
  }
}

public struct ApplicationDidNotListen: Error {}

/// The application under test, which also says the port it listens on.
private struct PortReportingApplication<Base: ApplicationProtocol>: ApplicationProtocol {
  typealias Responder = Base.Responder

  let base: Base
  let report: @Sendable (Int) -> Void

  var responder: Responder {
    get async throws { try await base.responder }
  }
  var server: HTTPServerBuilder { base.server }
  var eventLoopGroup: any EventLoopGroup { base.eventLoopGroup }
  var configuration: ApplicationConfiguration { base.configuration }
  var logger: Logger { base.logger }
  var services: [any Service] { base.services }
  var processesRunBeforeServerStart: [@Sendable () async throws -> Void] {
    base.processesRunBeforeServerStart
  }

  @Sendable func onServerRunning(_ channel: any Channel) async {
    await base.onServerRunning(channel)
    if let port = channel.localAddress?.port { report(port) }
  }
}
