import NIOCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The 1-second tick on an absolute grid (tick n at start + n s, never "sleep a second after
/// the work"): it writes the primary stream's newest price as one line. Read on the tick, it
/// first reads what the kernel holds for each stream and writes the line once those reads are
/// complete, so the line shows the newest trade, as btc-price's does. Lives on the event loop.
final class FloorTicker {
  private let loop: any EventLoop
  private let streams: [FloorStreamReader]
  private let readOnTick: Bool
  private let start = NIODeadline.now()
  private var ticks: Int64 = 0
  private var linePending = false
  private var line: [UInt8] = []

  /// - Parameter streams: the primary (whose price the line shows) first.
  init(loop: any EventLoop, streams: [FloorStreamReader], readOnTick: Bool) {
    self.loop = loop
    self.streams = streams
    self.readOnTick = readOnTick
    line.reserveCapacity(48)
    for stream in streams {
      stream.onTickRead = { [unowned self] in self.readCompleted() }
    }
  }

  func run() {
    ticks += 1
    loop.assumeIsolated().scheduleTask(deadline: start + .seconds(ticks)) { self.tick() }
  }

  private func tick() {
    run()
    guard readOnTick else { return writeLine() }
    // A read the previous tick asked for that never completed (a stalled machine) does not hold
    // this tick's line back.
    if linePending { writeLine() }
    for stream in streams { stream.cancelTickRead() }
    linePending = true
    var asked = false
    for stream in streams where stream.readForTick() { asked = true }
    if !asked { writeLine() }
  }

  private func readCompleted() {
    if linePending, !streams.contains(where: \.awaitingTickRead) { writeLine() }
  }

  /// Straight to the descriptor, as the C floor does; a pipe that breaks ends the process.
  private func writeLine() {
    linePending = false
    guard let primary = streams.first, !primary.latest.isEmpty else { return }
    line.removeAll(keepingCapacity: true)
    line.append(contentsOf: primary.latest)
    line.append(UInt8(ascii: "\n"))
    let written = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
    if written < 0 { exit(1) }
  }
}
