#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Stops the run on a broken property: libFuzzer keeps the input as a finding (its crash file).
func violated(_ property: String) -> Never {
  fatalError("property violated: \(property)")
}

/// The input as libFuzzer hands it over.
func bytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
  Array(UnsafeBufferPointer(start: data, count: size))
}

/// Splits an input's first line off: the case it is for (`binance USD`), so that one target
/// walks every source and currency, and a seed or a finding says in words which it took.
func splitCase(_ input: [UInt8]) -> (name: String, rest: [UInt8])? {
  guard let end = input.firstIndex(of: UInt8(ascii: "\n")), end <= 32,
    let name = String(validating: input[..<end], as: UTF8.self)
  else { return nil }
  return (name, Array(input[(end + 1)...]))
}

/// True when `price` is the value of `text`, a number as the answer wrote it.
func isTheValue(_ price: Decimal, of text: String?) -> Bool {
  guard let text, let written = OracleNumber(text), let read = OracleNumber(price) else {
    return false
  }
  return written == read
}

/// Whether `BTC_PRICE_FUZZ_SAY` is set: then each target says what an input reached (`scripts/fuzz
/// --replay` with it shows which seeds get as far as a price).
let saying = ProcessInfo.processInfo.environment["BTC_PRICE_FUZZ_SAY"] != nil

func say(_ what: @autoclosure () -> String) {
  if saying { print("reached: \(what())") }
}
