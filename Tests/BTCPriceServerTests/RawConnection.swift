import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A plain TCP connection to 127.0.0.1, for what an HTTP client library would not send: an
/// oversized head, or connections that never send a request.
final class RawConnection: @unchecked Sendable {
  private let socket: Int32

  init(port: Int) throws {
    #if canImport(Glibc)
      socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
    #endif
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(socket)
      throw POSIXError(.ECONNREFUSED)
    }
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  }

  deinit {
    close(socket)
  }

  /// Ends the connection from this side, as a viewer closing the page does.
  func hangUp() {
    shutdown(socket, Int32(SHUT_RDWR))
  }

  func send(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        #if canImport(Glibc)
          let sent = Glibc.send(socket, bytes.baseAddress! + offset, bytes.count - offset, 0)
        #else
          let sent = Darwin.send(socket, bytes.baseAddress! + offset, bytes.count - offset, 0)
        #endif
        if sent <= 0 { return }
        offset += sent
      }
    }
  }

  /// Everything until the peer closes, `limit` bytes arrive, or 5 s pass without a byte.
  ///
  /// The blocking reads run on a Dispatch thread: blocking one of Swift's few cooperative
  /// threads would starve the server under test, which runs on them too.
  func receive(upTo limit: Int = 64 * 1024, untilContains marker: String? = nil) async -> String {
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(returning: self.blockingReceive(upTo: limit, untilContains: marker))
      }
    }
  }

  /// Whether the server has closed the connection: a receive ended on its end of the stream (or
  /// a reset), not on the 5 s receive time-out.
  var closedByServer: Bool {
    lock.lock()
    defer { lock.unlock() }
    return ended
  }
  private let lock = NSLock()
  private var ended = false

  private func blockingReceive(upTo limit: Int, untilContains marker: String?) -> String {
    var received = Data()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while received.count < limit {
      let count = recv(socket, &buffer, buffer.count, 0)
      // The server's close arrives as the end of the stream, or as a reset when the request it
      // never read was still in its buffer.
      if count == 0 || (count < 0 && errno == ECONNRESET) {
        lock.lock()
        ended = true
        lock.unlock()
      }
      if count <= 0 { break }
      received.append(contentsOf: buffer[0..<count])
      if let marker, String(decoding: received, as: UTF8.self).contains(marker) { break }
    }
    return String(decoding: received, as: UTF8.self)
  }
}
