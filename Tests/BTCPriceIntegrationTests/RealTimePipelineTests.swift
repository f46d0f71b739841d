import Testing

/// The suites that assert on real time (deadlines of 800 ms, ticks within their second), nested
/// here so that they run one test at a time. Run side by side, twenty real-time pipelines on a
/// 2-core CI machine once pushed a 200 ms answer past an 800 ms deadline.
@Suite(.serialized)
struct RealTimePipelineTests {}
