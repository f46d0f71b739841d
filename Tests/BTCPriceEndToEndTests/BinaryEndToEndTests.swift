import Testing

/// Every suite that runs the built binary, nested here so that one binary runs at a time: several
/// at once on a 2-core machine starve each other and the real-time suites of CPU.
@Suite(.serialized)
struct BinaryEndToEndTests {}
