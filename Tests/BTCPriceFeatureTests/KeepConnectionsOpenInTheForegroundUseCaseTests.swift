import BTCPriceCore
import BTCPriceFeature
import BTCPriceRuntime
import BTCPriceTestSupport
import Foundation
import Testing

/// The price screen keeps its connections (the price streams) open exactly while it ticks: opened
/// before the first tick, closed on going to the background or leaving the screen, reopened at
/// once on return.
@Suite(
  "Keep the connections open in the foreground", .timeLimit(.minutes(1)),
  .hangLimit(.seconds(30)))
@MainActor
struct KeepConnectionsOpenInTheForegroundUseCaseTests {
  let clock = SteppedTestClock()

  @Test func run_opensTheConnectionsAndWaitsUntilTheyAreReadyBeforeTheFirstTick() async {
    let (sut, loader, connections) = makeSUT()
    let running = Task { await sut.run() }
    await waitOnMainActor(until: { connections.open == 1 }, "the connections were not opened")
    await waitOnMainActor(until: { connections.readyAsked == 1 })
    for _ in 0..<1_000 { await Task.yield() }

    #expect(loader.calls.count == 0, "a tick ran before the connections were ready")
    connections.makeReady()

    await waitOnMainActor(until: { sut.priceText == "$68,901.23" }, "the first tick never came")
    await stop(running)
  }

  @Test func background_closesTheConnections_andReturnReopensThemAtOnce() async {
    let (sut, _, connections) = makeSUT(ready: true)
    let running = Task { await sut.run() }
    await waitOnMainActor(until: { sut.priceText == "$68,901.23" })

    sut.phaseDidChange(to: .background)
    await waitOnMainActor(until: { connections.open == 0 }, "the connections stayed open")
    await clock.advance(to: .seconds(10))
    #expect(connections.opened == 1, "reopened in the background")

    sut.phaseDidChange(to: .active)
    await waitOnMainActor(
      until: { connections.open == 1 && connections.opened == 2 }, "not reopened on return")
    await stop(running)
  }

  @Test func leavingTheScreen_closesTheConnections() async {
    let (sut, _, connections) = makeSUT(ready: true)
    let running = Task { await sut.run() }
    await waitOnMainActor(until: { connections.open == 1 })

    await stop(running)

    #expect(connections.open == 0)
  }

  // MARK: - Helpers

  private func makeSUT(ready: Bool = false) -> (
    PriceViewModel, ScriptedLoader, ConnectionsSpy
  ) {
    let loader = ScriptedLoader(.answer(quote("68901.23")))
    let connections = ConnectionsSpy(ready: ready)
    let chain = PriceSourceChain([.init(source: .binance, loader: loader)], clock: clock)
    let sut = PriceViewModel(
      feed: PriceFeed(chain: chain, cache: nil), clock: clock,
      timeZone: { TimeZone(identifier: "UTC")! }, connections: connections.value)
    return (sut, loader, connections)
  }

  private func stop(_ running: Task<Void, Never>) async {
    running.cancel()
    await running.value
  }
}

/// Counts the connections opened and open now; `ready` waits for ``makeReady()``.
private final class ConnectionsSpy: Sendable {
  private struct State {
    var opened = 0
    var open = 0
    var readyAsked = 0
    var isReady: Bool
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  private let state: Locked<State>

  init(ready: Bool) {
    state = Locked(State(isReady: ready))
  }

  var opened: Int { state.value.opened }
  var open: Int { state.value.open }
  var readyAsked: Int { state.value.readyAsked }

  var value: PriceConnections {
    PriceConnections(
      run: { [state] in
        state.withValue {
          $0.opened += 1
          $0.open += 1
        }
        let (never, continuation) = AsyncStream.makeStream(of: Never.self)
        for await _ in never {}
        continuation.finish()
        state.withValue { $0.open -= 1 }
      },
      ready: { [state] in
        await withCheckedContinuation { continuation in
          let now = state.withValue { state in
            state.readyAsked += 1
            if !state.isReady { state.waiters.append(continuation) }
            return state.isReady
          }
          if now { continuation.resume() }
        }
      })
  }

  func makeReady() {
    let waiters = state.withValue { state in
      state.isReady = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}
