import BTCPriceTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Testing

/// RouterTester, withRunningApplication and HTTPStreamReader (BTCPriceTestSupport), which replace
/// HummingbirdTesting and AsyncHTTPClient in serve's tests: what each must do for those tests to
/// mean what they say.
@Suite(
  "The tests' own HTTP helpers: a router in-process, a server on a port, a stream as it comes",
  .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct TheTestsOwnHTTPHelpersTests {
  // MARK: RouterTester

  @Test func routerTester_handsTheRouteItsMethodPathAndHeaders_andReturnsTheWholeAnswer()
    async throws
  {
    let router = Router()
    router.get("/echo") { request, _ in
      Response(
        status: .accepted, headers: [.contentType: "text/plain", .eTag: "\"x\""],
        body: .init(
          byteBuffer: ByteBuffer(
            string: "\(request.method) \(request.uri) \(request.headers[.ifNoneMatch] ?? "-")")))
    }
    let client = RouterTester(router)

    let answer = try await client.execute(
      uri: "/echo?a=1", method: .get, headers: [.ifNoneMatch: "\"y\""])

    #expect(answer.status == .accepted)
    #expect(answer.headers[.contentType] == "text/plain")
    #expect(answer.headers[.eTag] == "\"x\"")
    #expect(answer.text == #"GET /echo?a=1 "y""#)
  }

  @Test func routerTester_collectsABodyWrittenInParts_andAnswers500ToAnError() async throws {
    struct Broken: Error {}
    let router = Router()
    router.get("/parts") { _, _ in
      Response(
        status: .ok,
        body: ResponseBody { writer in
          try await writer.write(ByteBuffer(string: "one "))
          try await writer.write(ByteBuffer(string: "two"))
          try await writer.finish(nil)
        })
    }
    router.get("/broken") { _, _ -> Response in throw Broken() }
    let client = RouterTester(router)

    #expect(try await client.execute(uri: "/parts").text == "one two")
    #expect(try await client.execute(uri: "/broken").status == .internalServerError)
  }

  // MARK: withRunningApplication and HTTPStreamReader

  @Test func aRunningApplication_answersOnItsPort_andIsGoneOnceTheBodyReturns() async throws {
    let router = Router()
    router.get("/hello") { _, _ in "hello" }

    let port = try await withRunningApplication(Self.application(router)) { port in
      let answer = try await HTTPStreamReader.open("http://127.0.0.1:\(port)/hello")
      #expect(answer.status == 200)
      #expect(try await answer.collectText() == "hello")
      return port
    }

    await #expect(throws: (any Error).self) {
      _ = try await HTTPStreamReader.open("http://127.0.0.1:\(port)/hello")
    }
  }

  @Test func aStream_isReadAsItComes_andEndsCleanlyWithItsLastChunk() async throws {
    let (released, release) = AsyncStream.makeStream(of: Void.self)
    let router = Router()
    router.get("/stream") { request, _ in
      Response(
        status: .ok, headers: [.contentType: "text/event-stream"],
        body: ResponseBody { writer in
          try await writer.write(
            ByteBuffer(string: "id: \(request.headers[.lastEventID] ?? "none")\n\n"))
          for await _ in released { break }
          try await writer.write(ByteBuffer(string: "second\n\n"))
          try await writer.finish(nil)
        })
    }

    try await withRunningApplication(Self.application(router)) { port in
      let stream = try await HTTPStreamReader.open(
        "http://127.0.0.1:\(port)/stream", headers: [("Last-Event-ID", "7")])
      #expect(stream.headers["content-type"] == "text/event-stream")
      var body = stream.body.makeAsyncIterator()
      // The first part comes while the server still holds the second.
      let first = try await body.next()
      #expect(first.map { String(buffer: $0) } == "id: 7\n\n")

      release.yield()
      var rest = ""
      while let chunk = try await body.next() { rest += String(buffer: chunk) }
      #expect(rest == "second\n\n")
    }
  }

  @Test func aStreamCutBeforeItsLastChunk_throws() async throws {
    struct Cut: Error {}
    let router = Router()
    router.get("/cut") { _, _ in
      Response(
        status: .ok,
        body: ResponseBody { writer in
          try await writer.write(ByteBuffer(string: "partial"))
          throw Cut()
        })
    }

    try await withRunningApplication(Self.application(router)) { port in
      let stream = try await HTTPStreamReader.open("http://127.0.0.1:\(port)/cut")
      await #expect(throws: HTTPStreamReaderError.closedBeforeTheEnd) {
        _ = try await stream.collectText()
      }
    }
  }

  @Test func anHTTPSAddress_isRefused() async {
    await #expect(throws: HTTPStreamReaderError.notPlainHTTP("https://127.0.0.1:1/")) {
      _ = try await HTTPStreamReader.open("https://127.0.0.1:1/")
    }
  }

  private static func application(_ router: Router<BasicRequestContext>)
    -> some ApplicationProtocol
  {
    Application(
      router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
      logger: Logger(label: "test"))
  }
}
