// Terminals: xnu-11417.101.15 bsd/sys/ttycom.h, and what Swift's Darwin overlay declares because
// C's cannot import: the variadic `ioctl` (swiftlang/swift stdlib/public/Platform/Platform.swift)
// and the `_IOR`/`_IOW` requests it spells out (TiocConstants.swift). `FIONREAD` is not among
// them, so it does not exist in Swift on Darwin (docs/ARCHITECTURE.md, "Platforms").

/// `struct winsize { unsigned short ws_row, ws_col, ws_xpixel, ws_ypixel; }` (ttycom.h:82)
public struct winsize: Sendable {
  public var ws_row: UInt16
  public var ws_col: UInt16
  public var ws_xpixel: UInt16
  public var ws_ypixel: UInt16
  public init() { _standIn() }
  public init(ws_row: UInt16, ws_col: UInt16, ws_xpixel: UInt16, ws_ypixel: UInt16) { _standIn() }
}

/// TiocConstants.swift: `public var TIOCGWINSZ: UInt { return 0x40087468 }`, which is
/// `_IOR('t', 104, struct winsize)` (ttycom.h:153)
public var TIOCGWINSZ: UInt { 0x4008_7468 }

/// The overlay's `ioctl(_ fd: CInt, _ request: UInt, _ value: CInt) -> CInt`
@discardableResult
public func ioctl(_ fd: Int32, _ request: UInt, _ value: Int32) -> Int32 { _standIn() }
/// The overlay's `ioctl(_ fd: CInt, _ request: UInt, _ ptr: UnsafeMutableRawPointer) -> CInt`
@discardableResult
public func ioctl(_ fd: Int32, _ request: UInt, _ pointer: UnsafeMutableRawPointer) -> Int32 {
  _standIn()
}
/// The overlay's `ioctl(_ fd: CInt, _ request: UInt) -> CInt`
@discardableResult
public func ioctl(_ fd: Int32, _ request: UInt) -> Int32 { _standIn() }
