/// The classic mutation operators (issue 31).
public enum MutationOperator: String, Codable, Sendable, CaseIterable {
  /// `<` ↔ `<=`, `>` ↔ `>=`.
  case relationalBoundary = "boundary"
  /// `==` ↔ `!=`, `if c` → `if !(c)`, `!c` → `c`.
  case negatedCondition = "negation"
  /// `&&` ↔ `||`.
  case logical = "logical"
  /// `+` ↔ `-`, `*` ↔ `/`, `%` → `*`, and their compound assignments.
  case arithmetic = "arithmetic"
  /// An integer literal ± 1.
  case integerConstant = "constant"
  /// `.seconds(5)` → `.seconds(50)`, `.milliseconds(800)` → `.milliseconds(8000)`.
  case durationConstant = "duration"
  /// An assignment, a line of a `defer` body, or a call whose result is unused, left out.
  case droppedStatement = "drop"
  /// `c ? a : b` → `c ? b : a`.
  case swappedTernary = "ternary"
  /// `a ?? b` → `b ?? a`; in `a ?? b ?? c`, `b ?? a ?? c`.
  case swappedPrecedence = "precedence"
  /// `c ? a : b` → `a`, and → `b`: the choice made the same way every time.
  case ternaryBranch = "branch"
  /// A call that is the only statement of a closure or of a `set`, `willSet` or `didSet`
  /// (`lock.withLockedValue { … }` in `queue.async { … }`), left out. Its value may be the
  /// closure's result; where it is not `Void` the compiler refuses the mutant, and the runner
  /// drops it as not compiling.
  case droppedOnlyCall = "only-call"
}

/// One mutant: a change to one place of one file.
public struct Mutant: Codable, Sendable, Hashable {
  /// Unique within a run; the value of the switch that turns this mutant on.
  public var id: Int
  /// The file, relative to the package's root.
  public var file: String
  public var line: Int
  public var column: Int
  public var mutationOperator: MutationOperator
  /// What the code said and what the mutant says instead, short (for the report and for the
  /// verdicts file).
  public var original: String
  public var replacement: String
  /// The bytes of the file (UTF-8 offsets) that the mutant replaces.
  public var start: Int
  public var end: Int
  /// The mutant's text for `start..<end`, on one line; empty for a dropped statement.
  public var mutatedText: String
  /// Whether `start..<end` is a whole statement (a dropped statement, a compound assignment),
  /// so its schema is an `if`, not a ternary.
  public var isStatement: Bool
  /// For the second and later of the same change on one line (`a % 3600 == 0 ? a / 3600`'s
  /// two `3600 → 3599`), which of them it is, counted from the left: 2, 3...; nil for the
  /// first (so the keys of lines without twins, and the verdicts naming them, stay as they were).
  public var ordinal: Int? = nil

  public var change: String { "\(original) → \(replacement)" }

  /// Names the mutant across runs: the file, the line, the change, and for a twin on the same
  /// line its ordinal (`… 3600 → 3599 #2`). (Not the id, which is per run; not the column, which
  /// a reformatting moves.)
  public var key: String { "\(file):\(line): \(change)" + (ordinal.map { " #\($0)" } ?? "") }
}
