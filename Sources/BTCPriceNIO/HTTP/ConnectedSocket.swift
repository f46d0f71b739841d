import NIOCore

#if os(Linux)
  import Glibc
#endif

/// A connected TCP socket's descriptor, and the two questions a drain asks the kernel about it
/// (Linux): whether it holds unread bytes (`SO_MEMINFO`) and how long ago its data last came
/// (`TCP_INFO`).
///
/// SwiftNIO keeps a channel's descriptor to itself, and its option path costs a drain more than
/// the questions do: `syncOptions.getOption` casts the option to its type dynamically
/// (`swift_dynamicCast`, four times a call) and `getTCPInfo` answers with a future. Asked of the
/// descriptor, each is one `getsockopt` (docs/PERFORMANCE.md, "Streams"). The
/// descriptor is found once a connection, as the socket whose own and peer addresses are the
/// channel's: a TCP connection's two addresses name it alone. It may be used only while the
/// channel is open and only on its event loop, where SwiftNIO closes it.
struct ConnectedSocket {
  let descriptor: CInt

  /// The socket of `channel` among the process's open descriptors; nil when its addresses are
  /// not known or no descriptor has them (and on systems other than Linux).
  static func of(_ channel: any Channel) -> ConnectedSocket? {
    #if os(Linux)
      guard let local = channel.localAddress, let remote = channel.remoteAddress,
        let folder = opendir("/proc/self/fd")
      else { return nil }
      defer { closedir(folder) }
      while let entry = readdir(folder) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
          String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        guard let descriptor = CInt(name), descriptor != dirfd(folder) else { continue }
        if address(of: descriptor, getsockname) == local,
          address(of: descriptor, getpeername) == remote
        {
          return ConnectedSocket(descriptor: descriptor)
        }
      }
      return nil
    #else
      return nil
    #endif
  }

  #if os(Linux)
    /// Whether the kernel holds bytes the socket has not read: the first word of `SO_MEMINFO`
    /// is the memory of its receive queue. Nil when the kernel does not answer.
    var holdsUnreadBytes: Bool? {
      // SK_MEMINFO_VARS is 9 words today; room for more, of which the kernel fills what it has.
      // On the stack: this is asked at every drain.
      withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { words in
        words.initialize(repeating: 0)
        var length = socklen_t(MemoryLayout<UInt32>.size * words.count)
        let result = getsockopt(
          descriptor, SOL_SOCKET, Self.memoryInfoOption, words.baseAddress, &length)
        guard result == 0, length >= MemoryLayout<UInt32>.size else { return nil }
        return words[0] != 0
      }
    }

    /// `SO_MEMINFO`, which Swift's Glibc module does not name.
    static let memoryInfoOption: CInt = 55

    /// How long ago the socket last received data (`TCP_INFO`'s `tcpi_last_data_recv`, to the
    /// kernel's tick of a few milliseconds). Nil when the kernel does not answer.
    var lastDataAge: Duration? {
      var info = tcp_info()
      var length = socklen_t(MemoryLayout<tcp_info>.size)
      guard getsockopt(descriptor, CInt(IPPROTO_TCP), TCP_INFO, &info, &length) == 0 else {
        return nil
      }
      return .milliseconds(Int(info.tcpi_last_data_recv))
    }

    private static func address(
      of descriptor: CInt,
      _ ask: (CInt, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> CInt
    ) -> SocketAddress? {
      var storage = sockaddr_storage()
      var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
      let result = withUnsafeMutablePointer(to: &storage) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { ask(descriptor, $0, &length) }
      }
      guard result == 0 else { return nil }
      return withUnsafeBytes(of: storage) { bytes in
        switch CInt(storage.ss_family) {
        case AF_INET: SocketAddress(bytes.load(as: sockaddr_in.self), host: "")
        case AF_INET6: SocketAddress(bytes.load(as: sockaddr_in6.self), host: "")
        default: nil
        }
      }
    }
  #endif
}
