// Sockets: xnu-11417.101.15 bsd/sys/socket.h, bsd/netinet/in.h, bsd/netinet/tcp.h, and
// Libc-1725.0.11 include/arpa/inet.h (no nullability annotations: a pointer is implicitly
// unwrapped). `SOCK_STREAM` is a plain `int` here (glibc's is an enum, `__socket_type`); a
// `sockaddr` starts with its length (`sa_len`) and its family is one byte.

/// `#define AF_INET 2` (bsd/sys/socket.h:391)
public var AF_INET: Int32 { 2 }
/// `#define SOCK_STREAM 1` (bsd/sys/socket.h:113)
public var SOCK_STREAM: Int32 { 1 }
/// `#define SOL_SOCKET 0xffff` (bsd/sys/socket.h:380)
public var SOL_SOCKET: Int32 { 0xffff }
/// `#define SO_RCVTIMEO 0x1006` (bsd/sys/socket.h:165)
public var SO_RCVTIMEO: Int32 { 0x1006 }
/// `#define SO_LINGER 0x0080` (bsd/sys/socket.h:132)
public var SO_LINGER: Int32 { 0x0080 }
/// `#define SO_NREAD 0x1020` (bsd/sys/socket.h:172)
public var SO_NREAD: Int32 { 0x1020 }
/// `#define SHUT_RD 0` (bsd/sys/socket.h:737)
public var SHUT_RD: Int32 { 0 }
/// `#define SHUT_WR 1` (bsd/sys/socket.h:738)
public var SHUT_WR: Int32 { 1 }
/// `#define SHUT_RDWR 2` (bsd/sys/socket.h:739)
public var SHUT_RDWR: Int32 { 2 }
/// `#define IPPROTO_TCP 6` (bsd/netinet/in.h:117)
public var IPPROTO_TCP: Int32 { 6 }
/// `#define TCP_NODELAY 0x01` (bsd/netinet/tcp.h:221)
public var TCP_NODELAY: Int32 { 0x01 }
/// `#define TCP_CONNECTION_INFO 0x106` (bsd/netinet/tcp.h:245)
public var TCP_CONNECTION_INFO: Int32 { 0x106 }

/// `struct sockaddr { __uint8_t sa_len; sa_family_t sa_family; char sa_data[14]; }`
/// (socket.h:447)
public struct sockaddr: Sendable {
  public var sa_len: UInt8
  public var sa_family: sa_family_t
  public var sa_data: (CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar)
  public init() { _standIn() }
}

/// `struct in_addr { in_addr_t s_addr; }` (in.h:310)
public struct in_addr: Sendable {
  public var s_addr: in_addr_t
  public init() { _standIn() }
  public init(s_addr: in_addr_t) { _standIn() }
}

/// `struct sockaddr_in { __uint8_t sin_len; sa_family_t sin_family; in_port_t sin_port; struct
/// in_addr sin_addr; char sin_zero[8]; }` (in.h:385)
public struct sockaddr_in: Sendable {
  public var sin_len: UInt8
  public var sin_family: sa_family_t
  public var sin_port: in_port_t
  public var sin_addr: in_addr
  public var sin_zero: (CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar)
  public init() { _standIn() }
}

/// `struct linger { int l_onoff; int l_linger; }` (socket.h:348)
public struct linger: Sendable {
  public var l_onoff: Int32
  public var l_linger: Int32
  public init() { _standIn() }
  public init(l_onoff: Int32, l_linger: Int32) { _standIn() }
}

/// `struct tcp_connection_info` (tcp.h:254), what `TCP_CONNECTION_INFO` reads; it has no time of
/// the last data received, unlike Linux's `tcp_info`. The bit fields after `tcpi_rttvar` are
/// left out: nothing here reads them.
public struct tcp_connection_info: Sendable {
  public var tcpi_state: UInt8
  public var tcpi_snd_wscale: UInt8
  public var tcpi_rcv_wscale: UInt8
  public var __pad1: UInt8
  public var tcpi_options: UInt32
  public var tcpi_flags: UInt32
  public var tcpi_rto: UInt32
  public var tcpi_maxseg: UInt32
  public var tcpi_snd_ssthresh: UInt32
  public var tcpi_snd_cwnd: UInt32
  public var tcpi_snd_wnd: UInt32
  public var tcpi_snd_sbbytes: UInt32
  public var tcpi_rcv_wnd: UInt32
  public var tcpi_rttcur: UInt32
  public var tcpi_srtt: UInt32
  public var tcpi_rttvar: UInt32
  public var tcpi_txpackets: UInt64
  public var tcpi_txbytes: UInt64
  public var tcpi_txretransmitbytes: UInt64
  public var tcpi_rxpackets: UInt64
  public var tcpi_rxbytes: UInt64
  public var tcpi_rxoutoforderbytes: UInt64
  public var tcpi_txretransmitpackets: UInt64
  public init() { _standIn() }
}

/// `int socket(int, int, int)` (socket.h:806)
public func socket(_ domain: Int32, _ type: Int32, _ protocol: Int32) -> Int32 { _standIn() }

/// `int bind(int, const struct sockaddr *, socklen_t)` (socket.h:787)
@discardableResult
public func bind(_ socket: Int32, _ address: UnsafePointer<sockaddr>!, _ length: socklen_t)
  -> Int32
{ _standIn() }

/// `int connect(int, const struct sockaddr *, socklen_t)` (socket.h:788)
@discardableResult
public func connect(_ socket: Int32, _ address: UnsafePointer<sockaddr>!, _ length: socklen_t)
  -> Int32
{ _standIn() }

/// `int getsockname(int, struct sockaddr * __restrict, socklen_t * __restrict)` (socket.h:791)
@discardableResult
public func getsockname(
  _ socket: Int32, _ address: UnsafeMutablePointer<sockaddr>!,
  _ length: UnsafeMutablePointer<socklen_t>!
) -> Int32 { _standIn() }

/// `ssize_t recv(int, void *, size_t, int)` (socket.h:795)
@discardableResult
public func recv(_ socket: Int32, _ buffer: UnsafeMutableRawPointer!, _ count: Int, _ flags: Int32)
  -> Int
{ _standIn() }

/// `ssize_t send(int, const void *, size_t, int)` (socket.h:799)
@discardableResult
public func send(_ socket: Int32, _ buffer: UnsafeRawPointer!, _ count: Int, _ flags: Int32)
  -> Int
{ _standIn() }

/// `int setsockopt(int, int, int, const void *, socklen_t)` (socket.h:803)
@discardableResult
public func setsockopt(
  _ socket: Int32, _ level: Int32, _ name: Int32, _ value: UnsafeRawPointer!,
  _ length: socklen_t
) -> Int32 { _standIn() }

/// `int shutdown(int, int)` (socket.h:804)
@discardableResult
public func shutdown(_ socket: Int32, _ how: Int32) -> Int32 { _standIn() }

/// `in_addr_t inet_addr(const char *)` (arpa/inet.h:78)
public func inet_addr(_ text: UnsafePointer<CChar>!) -> in_addr_t { _standIn() }
