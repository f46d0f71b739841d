import BTCPriceCore
import BTCPriceRuntime
import BTCPriceSources
import BTCPriceTestSupport
import BTCPriceURLSession
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The app's WebSocket adapter on a scripted task: what it sends, what it hands the runner, and
/// the typed error every ending maps to. (FoundationNetworking on this Linux cannot open a real
/// WebSocket, so the task is scripted: docs/STREAMS.md, "The app's transport".)
@Suite("Read a price stream over URLSession", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct ReadAStreamOverURLSessionUseCaseTests {
  @Test func run_boundsMessagesSendsTheSubscriptionsAndHandsOverEachText() async throws {
    let (sut, task) = makeSUT()
    let inbound = Locked<[WebSocketInbound]>([])
    let running = Task {
      await sut.run(url: Self.url, subscriptions: ["sub-1", "sub-2"]) { message in
        inbound.append(message)
        return nil
      }
    }
    task.deliver(.string(FakeStreamMessage.binanceTrade(price: "70123.45")))
    await waitUntil({ inbound.value.count == 1 }, "the message was not handed over")

    #expect(task.sent == ["sub-1", "sub-2"])
    #expect(task.maximumMessageSize == PriceStreamEndpoint.maximumMessageSize)
    #expect(task.userAgent == BTCPriceVersion.userAgent)
    #expect(inbound.value == [.text(FakeStreamMessage.binanceTrade(price: "70123.45"))])
    running.cancel()
    #expect(await running.value == .closed(code: nil))
  }

  @Test func run_sendsWhatTheRunnerSays_afterTheSubscriptions() async throws {
    let (sut, task) = makeSUT()
    let (outbound, say) = AsyncStream.makeStream(of: String.self)
    let running = Task {
      await sut.run(url: Self.url, subscriptions: ["sub-1"], outbound: outbound) { _, _ in nil }
    }
    await waitUntil({ task.sent == ["sub-1"] }, "the subscription was not sent")

    say.yield("ping")

    await waitUntil({ task.sent == ["sub-1", "ping"] }, "the keep-alive was not sent")
    running.cancel()
    #expect(await running.value == .closed(code: nil))
  }

  @Test func cancellation_closesTheTask() async throws {
    let (sut, task) = makeSUT()
    let running = Task { await sut.run(url: Self.url, subscriptions: []) { _ in nil } }
    await waitUntil({ task.isResumed }, "the task was never resumed")

    running.cancel()

    #expect(await running.value == .closed(code: nil))
    #expect(task.closedWith.first == .goingAway)
  }

  @Test func binaryMessage_endsTheConnectionWithAProtocolViolation() async throws {
    let (sut, task) = makeSUT()
    task.deliver(.data(Data([0x01, 0x02])))

    let ending = await sut.run(url: Self.url, subscriptions: []) { _ in nil }

    #expect(ending == .protocolViolation("binary frame"))
    #expect(task.closedWith == [.unsupportedData])
  }

  @Test func textRepairedFromBytesThatWereNotUTF8_isRefused() async throws {
    let (sut, task) = makeSUT()
    task.deliver(.string("{\"p\":\"7\u{FFFD}0\"}"))

    let ending = await sut.run(url: Self.url, subscriptions: []) { _ in nil }

    #expect(ending == .protocolViolation("text frame is not UTF-8"))
  }

  @Test func runnersRefusal_endsTheConnectionWithItsError() async throws {
    let (sut, task) = makeSUT()
    task.deliver(.string("junk"))

    let ending = await sut.run(url: Self.url, subscriptions: []) { _ in
      .invalidMessage("junk")
    }

    #expect(ending == .invalidMessage("junk"))
    #expect(task.closedWith == [.normalClosure])
  }

  @Test func serversCloseFrame_endsWithItsCode() async throws {
    let (sut, task) = makeSUT()
    task.fail(URLError(.networkConnectionLost), closeCode: .goingAway)

    #expect(await sut.run(url: Self.url, subscriptions: []) { _ in nil } == .closed(code: 1001))
  }

  @Test func refusedUpgrade_endsWithTheStatus() async throws {
    let (sut, task) = makeSUT()
    task.fail(URLError(.badServerResponse), status: 451)

    #expect(
      await sut.run(url: Self.url, subscriptions: []) { _ in nil }
        == .handshakeFailed(status: 451, reason: "the server did not upgrade to WebSocket"))
  }

  /// A refusal that says when to come back: the runner rests the stream that long (as over NIO).
  @Test func refusedUpgrade_keepsItsRetryAfter() async throws {
    let (sut, task) = makeSUT()
    task.fail(URLError(.badServerResponse), status: 429, retryAfter: "120")

    #expect(
      await sut.run(url: Self.url, subscriptions: []) { _ in nil }
        == .handshakeFailed(
          status: 429, reason: "the server did not upgrade to WebSocket",
          retryAfter: .seconds(120)))
  }

  @Test func notAWebSocketURL_isUnreachableWithoutATask() async throws {
    let (sut, task) = makeSUT()

    let ending = await sut.run(url: URL(string: "https://example.com")!, subscriptions: []) { _ in
      nil
    }

    #expect(ending == .unreachable("not a ws:// or wss:// URL: https://example.com"))
    #expect(!task.isResumed)
  }

  @Test(arguments: [
    (
      NSError(domain: NSPOSIXErrorDomain, code: Int(EMSGSIZE)) as any Error,
      PriceStreamError.frameTooLarge(limit: 65_536)
    ),
    (URLError(.networkConnectionLost), .closed(code: nil)),
    (URLError(.badServerResponse), .handshakeFailed(status: nil, reason: "bad")),
    (URLError(.cannotConnectToHost), .unreachable("refused")),
    (URLError(.unsupportedURL), .unreachable("WebSockets not supported by libcurl")),
  ])
  func everyEnding_mapsToATypedError(error: any Error, expected: PriceStreamError) {
    let error = Self.described(error, as: Self.text(of: expected))

    let reason = URLSessionWebSocketConnector.reason(
      for: error, closeCode: .invalid, handshakeStatus: nil, cancelled: false, limit: 65_536)

    #expect(reason == expected)
  }

  @Test func ourOwnCancellation_winsOverWhatTheTaskSays() {
    let reason = URLSessionWebSocketConnector.reason(
      for: URLError(.cancelled), closeCode: .goingAway, handshakeStatus: 200, cancelled: true,
      limit: 65_536)

    #expect(reason == .closed(code: nil))
  }

  // MARK: - Helpers

  static let url = URL(string: "wss://data-stream.binance.vision/ws/btcusdt@trade")!

  private func makeSUT() -> (URLSessionWebSocketConnector, ScriptedWebSocketTask) {
    let task = ScriptedWebSocketTask()
    let sut = URLSessionWebSocketConnector { request, limit in
      task.prepared(request, maximumMessageSize: limit)
      return task
    }
    return (sut, task)
  }

  /// The same error with `text` as its localized description, as URLSession's carry one.
  private static func described(_ error: any Error, as text: String) -> any Error {
    let error = error as NSError
    return NSError(
      domain: error.domain, code: error.code, userInfo: [NSLocalizedDescriptionKey: text])
  }

  private static func text(of expected: PriceStreamError) -> String {
    switch expected {
    case .unreachable(let text), .handshakeFailed(_, let text, _): text
    default: "whatever"
    }
  }
}

/// A WebSocket task that plays what the test gives it: messages, then an ending; records what
/// was sent and how it was closed.
private final class ScriptedWebSocketTask: WebSocketTaskDriving {
  /// A message to play. Not `URLSessionWebSocketTask.Message` itself: the state sits in a
  /// `Locked`, which holds only Sendable values, and whether Apple's Foundation declares that
  /// enum Sendable is not known here (swift-corelibs-foundation's is; issue 49).
  enum Scripted: Sendable {
    case string(String)
    case data(Data)

    var message: URLSessionWebSocketTask.Message {
      switch self {
      case .string(let text): .string(text)
      case .data(let data): .data(data)
      }
    }
  }

  private struct State {
    var queue: [Result<Scripted, any Error>] = []
    var waiter: CheckedContinuation<Scripted, any Error>?
    var sent: [String] = []
    var closedWith: [URLSessionWebSocketTask.CloseCode] = []
    var resumed = false
    var closeCode = URLSessionWebSocketTask.CloseCode.invalid
    var status: Int?
    var retryAfter: String?
    var maximumMessageSize = 0
    var userAgent: String?
  }

  private let state = Locked(State())

  var sent: [String] { state.value.sent }
  var closedWith: [URLSessionWebSocketTask.CloseCode] { state.value.closedWith }
  var isResumed: Bool { state.value.resumed }
  var maximumMessageSize: Int { state.value.maximumMessageSize }
  var userAgent: String? { state.value.userAgent }

  func prepared(_ request: URLRequest, maximumMessageSize: Int) {
    state.withValue {
      $0.maximumMessageSize = maximumMessageSize
      $0.userAgent = request.value(forHTTPHeaderField: "User-Agent")
    }
  }

  func deliver(_ message: Scripted) {
    hand(.success(message))
  }

  func fail(
    _ error: any Error, closeCode: URLSessionWebSocketTask.CloseCode = .invalid,
    status: Int? = nil, retryAfter: String? = nil
  ) {
    state.withValue {
      $0.closeCode = closeCode
      $0.status = status
      $0.retryAfter = retryAfter
    }
    hand(.failure(error))
  }

  func resume() { state.withValue { $0.resumed = true } }

  func send(text: String) async throws { state.withValue { $0.sent.append(text) } }

  func receive() async throws -> URLSessionWebSocketTask.Message {
    let next: Scripted = try await withCheckedThrowingContinuation { continuation in
      let next = state.withValue { state in
        guard !state.queue.isEmpty else {
          if state.closedWith.isEmpty { state.waiter = continuation }
          return state.closedWith.isEmpty
            ? nil : Result<Scripted, any Error>.failure(URLError(.cancelled))
        }
        return state.queue.removeFirst()
      }
      next.map { continuation.resume(with: $0) }
    }
    return next.message
  }

  func cancel(closeCode: URLSessionWebSocketTask.CloseCode) {
    let waiter = state.withValue { state in
      state.closedWith.append(closeCode)
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(throwing: URLError(.cancelled))
  }

  var closeCode: URLSessionWebSocketTask.CloseCode { state.value.closeCode }
  var handshakeStatus: Int? { state.value.status }
  var handshakeRetryAfter: String? { state.value.retryAfter }

  private func hand(_ result: Result<Scripted, any Error>) {
    let waiter = state.withValue { state in
      defer { state.waiter = nil }
      if state.waiter == nil { state.queue.append(result) }
      return state.waiter
    }
    waiter?.resume(with: result)
  }
}
