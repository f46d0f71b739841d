// fuzz-modules: BTCPriceRuntime BTCPriceCore
import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Our JSON reader (`JSONValue.parse`, what every REST answer and candle range goes through)
/// against the oracle's, written apart from RFC 8259.
///
/// Properties: ours accepts a document exactly when it is JSON, names no member twice in any
/// object and nests at most 32 deep; and what it reads is what the oracle reads, every string
/// decoded and every number kept as written.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = bytes(data, size)
  let ours = try? JSONValue.parse(Data(input))
  let oracle = OracleJSON.read(input)
  let valid = oracle.map { !$0.repeatsAName && $0.depth <= 32 } ?? false
  switch (ours, oracle) {
  case (let ours?, let oracle?) where valid:
    guard ours == oracle.asJSONValue else {
      violated("read \(ours), but the document says \(oracle)")
    }
  case (nil, _) where !valid: break
  case (let ours?, _):
    violated("accepted \(ours) from a document that is not JSON, repeats a name or nests too deep")
  case (nil, _):
    violated("refused a valid document")
  }
  return 0
}

extension OracleJSON {
  /// The same document as our reader's value; only for documents that name no member twice.
  var asJSONValue: JSONValue {
    switch self {
    case .object(let members):
      return .object(
        Dictionary(members.map { ($0.name, $0.value.asJSONValue) }) { first, _ in first })
    case .array(let elements): return .array(elements.map(\.asJSONValue))
    case .string(let text): return .string(text)
    case .number(let text): return .number(text)
    case .bool(let value): return .bool(value)
    case .null: return .null
    }
  }
}
