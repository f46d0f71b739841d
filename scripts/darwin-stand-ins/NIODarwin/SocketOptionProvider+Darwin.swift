// SwiftNIO's Darwin-only API that our code calls, which Linux's SwiftNIO compiles out: declared
// as swift-nio 2.101.3 declares it under `#if canImport(Darwin)` (the version Package.resolved
// picks today; `.build/checkouts/swift-nio`). The Mac's view (scripts/check-darwin-view) imports
// this module into every target that can import SwiftNIO. Bodies are never run: only the
// signatures are read.
import Darwin
import NIOCore

extension SocketOptionProvider {
  /// Sources/NIOCore/SocketOptionProvider.swift, `#if canImport(Darwin)`:
  /// `public func getTCPConnectionInfo() -> EventLoopFuture<tcp_connection_info>`.
  public func getTCPConnectionInfo() -> EventLoopFuture<tcp_connection_info> {
    fatalError("a stand-in of the Mac's view; never run")
  }
}

extension NIOBSDSocket.Option {
  /// Sources/NIOCore/BSDSocketAPI.swift, `#if canImport(Darwin)`:
  /// `public static var tcp_connection_info: NIOBSDSocket.Option`.
  public static var tcp_connection_info: NIOBSDSocket.Option {
    NIOBSDSocket.Option(rawValue: TCP_CONNECTION_INFO)
  }
}

extension SocketOptionProvider {
  /// Sources/NIOCore/SocketOptionProvider.swift: `public func setSoLinger(_ value: linger) ->
  /// EventLoopFuture<Void>`, whose `linger` is the C library's: Darwin's on a Mac, where Linux's
  /// SwiftNIO takes glibc's (through CNIOLinux). Declared again with Darwin's.
  public func setSoLinger(_ value: Darwin.linger) -> EventLoopFuture<Void> {
    fatalError("a stand-in of the Mac's view; never run")
  }
}
