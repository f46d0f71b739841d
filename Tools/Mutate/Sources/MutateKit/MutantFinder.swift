import SwiftOperators
import SwiftParser
import SwiftSyntax

/// Finds the mutants of one Swift file, on swift-syntax's tree with its operators folded (so
/// `a < b && c` is a tree of infix expressions, not a flat sequence).
public struct MutantFinder {
  /// Calls whose arguments are not mutated and that are never dropped: they guard against
  /// programmer errors, and changing them only moves a crash.
  static let guardCalls: Set<String> = [
    "precondition", "preconditionFailure", "assert", "assertionFailure", "fatalError",
    "dispatchPrecondition",
  ]

  public init() {}

  /// The mutants of `source`, numbered from `firstID`, in the order they appear.
  public func mutants(in source: String, file: String, firstID: Int = 1) -> [Mutant] {
    let tree = Parser.parse(source: source)
    let folded = OperatorTable.standardOperators.foldAll(tree) { _ in }
    let collector = Collector(
      file: file, converter: SourceLocationConverter(fileName: file, tree: folded))
    collector.walk(folded)
    var mutants = collector.found.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
    var seen: [String: Int] = [:]
    for index in mutants.indices {
      mutants[index].id = firstID + index
      // Twins (the same change twice on a line) get an ordinal, so each has a key of its own.
      let count = seen[mutants[index].key, default: 0] + 1
      seen[mutants[index].key] = count
      if count > 1 { mutants[index].ordinal = count }
    }
    return mutants
  }
}

private final class Collector: SyntaxVisitor {
  let file: String
  let converter: SourceLocationConverter
  var found: [Mutant] = []

  init(file: String, converter: SourceLocationConverter) {
    self.file = file
    self.converter = converter
    super.init(viewMode: .sourceAccurate)
  }

  // MARK: What is not mutated

  override func visit(_ node: AttributeSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
  override func visit(_ node: EnumCaseElementSyntax) -> SyntaxVisitorContinueKind {
    .skipChildren
  }
  override func visit(_ node: GenericArgumentClauseSyntax) -> SyntaxVisitorContinueKind {
    .skipChildren
  }
  override func visit(_ node: MacroExpansionExprSyntax) -> SyntaxVisitorContinueKind {
    .skipChildren
  }
  override func visit(_ node: MacroExpansionDeclSyntax) -> SyntaxVisitorContinueKind {
    .skipChildren
  }
  override func visit(_ node: IfConfigDeclSyntax) -> SyntaxVisitorContinueKind {
    // The condition of an `#if` is not code; its body is, where it is compiled here.
    for (clause, compiled) in zip(node.clauses, CompiledHere.clauses(of: node))
    where compiled != false {
      if let elements = clause.elements { walk(elements) }
    }
    return .skipChildren
  }

  // MARK: Operators

  static let boundary = ["<": "<=", "<=": "<", ">": ">=", ">=": ">"]
  static let equality = ["==": "!=", "!=": "=="]
  static let logical = ["&&": "||", "||": "&&"]
  static let arithmetic = [
    "+": "-", "-": "+", "*": "/", "/": "*", "%": "*", "&+": "&-", "&-": "&+",
  ]
  static let compound = ["+=": "-=", "-=": "+=", "*=": "/=", "/=": "*="]

  override func visit(_ node: InfixOperatorExprSyntax) -> SyntaxVisitorContinueKind {
    guard !isInsideGuardCall(node) else { return .skipChildren }
    guard let token = node.operator.as(BinaryOperatorExprSyntax.self)?.operator else {
      return .visitChildren
    }
    let op = token.text
    if let to = Self.boundary[op] {
      add(node, .relationalBoundary, original: op, replacement: to, edits: [(token, to)])
    } else if let to = Self.equality[op] {
      add(node, .negatedCondition, original: op, replacement: to, edits: [(token, to)])
    } else if let to = Self.logical[op] {
      add(node, .logical, original: op, replacement: to, edits: [(token, to)])
    } else if let to = Self.arithmetic[op], !isTextOrCollection(node.leftOperand),
      !isTextOrCollection(node.rightOperand)
    {
      add(node, .arithmetic, original: op, replacement: to, edits: [(token, to)])
    } else if let to = Self.compound[op], node.parent?.is(CodeBlockItemSyntax.self) == true {
      add(
        node, .arithmetic, original: op, replacement: to, edits: [(token, to)], isStatement: true)
    } else if op == "??" {
      swapPrecedence(node)
    }
    return .visitChildren
  }

  /// `a ?? b` → `b ?? a`; in a list `a ?? b ?? c` (folded `a ?? (b ?? c)`): `b ?? (a ?? c)`.
  private func swapPrecedence(_ node: InfixOperatorExprSyntax) {
    let left = node.leftOperand
    if let right = node.rightOperand.as(InfixOperatorExprSyntax.self),
      right.operator.as(BinaryOperatorExprSyntax.self)?.operator.text == "??"
    {
      guard let a = flat(left), let b = flat(right.leftOperand) else { return }
      add(
        node, .swappedPrecedence, original: "\(short(a)) ?? \(short(b))",
        replacement: "\(short(b)) ?? \(short(a))",
        edits: [(Syntax(left), b), (Syntax(right.leftOperand), a)])
    } else {
      // `a ?? b` with a `b` that is not optional would change the type (`b ?? a` is optional):
      // only where `b` reads as optional (a subscript, `try?`, an optional chain).
      guard isOptionalLooking(node.rightOperand) else { return }
      guard let a = flat(left), let b = flat(node.rightOperand) else { return }
      add(
        node, .swappedPrecedence, original: "\(short(a)) ?? \(short(b))",
        replacement: "\(short(b)) ?? \(short(a))",
        edits: [(Syntax(left), b), (Syntax(node.rightOperand), a)])
    }
  }

  private func isOptionalLooking(_ expression: ExprSyntax) -> Bool {
    if expression.is(SubscriptCallExprSyntax.self) || expression.is(OptionalChainingExprSyntax.self)
    {
      return true
    }
    if let tried = expression.as(TryExprSyntax.self), tried.questionOrExclamationMark != nil {
      return true
    }
    return expression.tokens(viewMode: .sourceAccurate).contains {
      $0.tokenKind == .postfixQuestionMark
    }
  }

  override func visit(_ node: PrefixOperatorExprSyntax) -> SyntaxVisitorContinueKind {
    guard !isInsideGuardCall(node) else { return .skipChildren }
    if node.operator.text == "!", let inner = flat(node.expression) {
      add(
        node, .negatedCondition, original: "!\(short(inner))", replacement: short(inner),
        edits: [(Syntax(node.operator), "")])
    }
    return .visitChildren
  }

  override func visit(_ node: ConditionElementSyntax) -> SyntaxVisitorContinueKind {
    guard case .expression(let condition) = node.condition, !isInsideGuardCall(node) else {
      return .visitChildren
    }
    // `!c` loses its `!` (above) and `a == b` becomes `a != b`: negating them again would
    // only repeat those mutants.
    if let prefix = condition.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
      return .visitChildren
    }
    if let infix = condition.as(InfixOperatorExprSyntax.self),
      let op = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text,
      Self.equality[op] != nil
    {
      return .visitChildren
    }
    if let text = flat(condition) {
      add(
        condition, .negatedCondition, original: short(text), replacement: "!(\(short(text)))",
        edits: [(Syntax(condition), "!(\(text))")])
    }
    return .visitChildren
  }

  override func visit(_ node: TernaryExprSyntax) -> SyntaxVisitorContinueKind {
    guard !isInsideGuardCall(node) else { return .skipChildren }
    if let then = flat(node.thenExpression), let otherwise = flat(node.elseExpression) {
      add(
        node, .swappedTernary, original: "? \(short(then)) : \(short(otherwise))",
        replacement: "? \(short(otherwise)) : \(short(then))",
        edits: [(Syntax(node.thenExpression), otherwise), (Syntax(node.elseExpression), then)])
      for branch in [then, otherwise] {
        add(
          node, .ternaryBranch, original: short(flat(node) ?? ""), replacement: short(branch),
          edits: [(Syntax(node), "(\(branch))")])
      }
    }
    return .visitChildren
  }

  // MARK: Constants

  override func visit(_ node: IntegerLiteralExprSyntax) -> SyntaxVisitorContinueKind {
    guard !isInsideGuardCall(node), let value = Self.value(of: node.literal.text) else {
      return .skipChildren
    }
    let text = node.literal.text
    for changed in [value + 1, value - 1] where changed >= 0 || value == 0 {
      add(
        node, .integerConstant, original: text, replacement: String(changed),
        edits: [(Syntax(node), String(changed))])
    }
    return .skipChildren
  }

  static let durationUnits: Set<String> = [
    "seconds", "milliseconds", "microseconds", "nanoseconds",
  ]

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    guard !isInsideGuardCall(node) else { return .skipChildren }
    // `.seconds(5)` or `Duration.seconds(5)` → ×10.
    if let member = node.calledExpression.as(MemberAccessExprSyntax.self),
      Self.durationUnits.contains(member.declName.baseName.text),
      member.base == nil || member.base?.trimmedDescription == "Duration",
      node.arguments.count == 1, let argument = node.arguments.first, argument.label == nil
    {
      let literal = argument.expression
      let unit = member.declName.baseName.text
      var tenfold: String?
      if let integer = literal.as(IntegerLiteralExprSyntax.self),
        let value = Self.value(of: integer.literal.text)
      {
        tenfold = String(value * 10)
      } else if let float = literal.as(FloatLiteralExprSyntax.self),
        let value = Double(float.literal.text.replacingOccurrences(of: "_", with: ""))
      {
        tenfold = String(value * 10)
      }
      if let tenfold {
        let was = literal.trimmedDescription
        add(
          literal, .durationConstant, original: ".\(unit)(\(was))",
          replacement: ".\(unit)(\(tenfold))", edits: [(Syntax(literal), tenfold)])
      }
    }
    return .visitChildren
  }

  static func value(of literal: String) -> Int? {
    let digits = literal.replacingOccurrences(of: "_", with: "")
    let value: Int? =
      if digits.hasPrefix("0x") {
        Int(digits.dropFirst(2), radix: 16)
      } else if digits.hasPrefix("0b") {
        Int(digits.dropFirst(2), radix: 2)
      } else if digits.hasPrefix("0o") { Int(digits.dropFirst(2), radix: 8) } else { Int(digits) }
    // ×10 of a duration must not overflow either.
    guard let value, value < Int.max / 100 else { return nil }
    return value
  }

  // MARK: Dropped statements

  override func visit(_ node: CodeBlockItemSyntax) -> SyntaxVisitorContinueKind {
    guard case .expr(let expression) = node.item, !isInsideGuardCall(node) else {
      if inDefer(node), case .stmt(let statement) = node.item,
        statement.is(ExpressionStmtSyntax.self), let text = flat(statement)
      {
        addDrop(Syntax(statement), text: text, what: "defer line")
      }
      return .visitChildren
    }
    var inner = expression
    while true {
      if let tried = inner.as(TryExprSyntax.self) {
        inner = tried.expression
      } else if let awaited = inner.as(AwaitExprSyntax.self) {
        inner = awaited.expression
      } else {
        break
      }
    }
    guard let text = flat(expression) else { return .visitChildren }
    let what = inDefer(node) ? "defer line" : nil
    if let infix = inner.as(InfixOperatorExprSyntax.self), isAssignment(infix.operator) {
      guard !isDirectlyInInitializer(node), !initializesALaterConstant(infix.leftOperand, node)
      else { return .visitChildren }
      addDrop(Syntax(expression), text: text, what: what ?? "assignment")
    } else if let call = inner.as(FunctionCallExprSyntax.self) {
      let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
      guard name.map({ !MutantFinder.guardCalls.contains($0) }) ?? true,
        !delegatesInitialization(call)
      else { return .visitChildren }
      if !isImplicitReturn(node) {
        addDrop(Syntax(expression), text: text, what: what ?? "call")
      } else if isOnlyStatementOfAClosureOrObserver(node) {
        add(
          expression, .droppedOnlyCall, original: "only call `\(short(text))`",
          replacement: "(nothing)", edits: [(Syntax(expression), "")], isStatement: true)
      }
    }
    return .visitChildren
  }

  /// `self.init(…)` or `super.init(…)`: an initializer without it does not compile, and the
  /// compiler says so at the initializer's end, not at the call (where the runner looks for a
  /// mutant's compile error), so the whole build failed (TimestampFormatter.swift, Nov 28).
  private func delegatesInitialization(_ call: FunctionCallExprSyntax) -> Bool {
    guard let member = call.calledExpression.as(MemberAccessExprSyntax.self),
      member.declName.baseName.text == "init", let base = member.base
    else { return false }
    return base.is(SuperExprSyntax.self)
      || base.as(DeclReferenceExprSyntax.self)?.baseName.text == "self"
  }

  private func isAssignment(_ op: ExprSyntax) -> Bool {
    if op.is(AssignmentExprSyntax.self) { return true }
    guard let text = op.as(BinaryOperatorExprSyntax.self)?.operator.text else { return false }
    return Self.compound[text] != nil || ["%=", "&=", "|=", "^=", "<<=", ">>="].contains(text)
  }

  private func addDrop(_ node: Syntax, text: String, what: String) {
    add(
      node, .droppedStatement, original: "\(what) `\(short(text))`", replacement: "(nothing)",
      edits: [(node, "")], isStatement: true)
  }

  private func inDefer(_ node: CodeBlockItemSyntax) -> Bool {
    var current = Syntax(node).parent
    while let next = current {
      if next.is(DeferStmtSyntax.self) { return true }
      if next.is(ClosureExprSyntax.self) || next.is(FunctionDeclSyntax.self) { return false }
      current = next.parent
    }
    return false
  }

  /// `let x: T` then `x = …` on each path: dropping one leaves `x` uninitialized, which does not
  /// compile.
  private func initializesALaterConstant(_ target: ExprSyntax, _ node: CodeBlockItemSyntax) -> Bool
  {
    guard let name = target.as(DeclReferenceExprSyntax.self)?.baseName.text else { return false }
    var current = Syntax(node).parent
    while let next = current {
      if let list = next.as(CodeBlockItemListSyntax.self) {
        for item in list {
          guard case .decl(let decl) = item.item, let variable = decl.as(VariableDeclSyntax.self)
          else { continue }
          for binding in variable.bindings
          where binding.initializer == nil
            && binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name
          {
            return true
          }
        }
      }
      if next.is(FunctionDeclSyntax.self) || next.is(ClosureExprSyntax.self) { return false }
      current = next.parent
    }
    return false
  }

  /// An assignment in an initializer may be what initializes a stored property; dropping it
  /// does not compile.
  private func isDirectlyInInitializer(_ node: CodeBlockItemSyntax) -> Bool {
    var current = Syntax(node).parent
    while let next = current {
      if next.is(InitializerDeclSyntax.self) { return true }
      if next.is(ClosureExprSyntax.self) || next.is(FunctionDeclSyntax.self)
        || next.is(AccessorDeclSyntax.self)
      {
        return false
      }
      current = next.parent
    }
    return false
  }

  /// The only statement of a body whose value is its result (a closure, a getter, a function
  /// with a result, an `if` or `switch` used as a value): the call's result is used.
  private func isImplicitReturn(_ node: CodeBlockItemSyntax) -> Bool {
    guard let list = node.parent?.as(CodeBlockItemListSyntax.self), list.count == 1,
      let owner = list.parent
    else { return false }
    if owner.is(ClosureExprSyntax.self) || owner.is(AccessorBlockSyntax.self) { return true }
    if let switchCase = owner.as(SwitchCaseSyntax.self) {
      return !isStatement(switchCase.parent?.parent)
    }
    guard let block = owner.as(CodeBlockSyntax.self), let holder = block.parent else {
      return false
    }
    if let function = holder.as(FunctionDeclSyntax.self) {
      return function.signature.returnClause != nil
    }
    if holder.is(AccessorDeclSyntax.self) { return true }
    if holder.is(IfExprSyntax.self) {
      var top = holder
      while let parent = top.parent, parent.is(IfExprSyntax.self) { top = parent }
      return !isStatement(top)
    }
    return false
  }

  /// The one statement of a closure, or of a `set`, `willSet` or `didSet` (whose value nobody
  /// reads); not of a getter, a function with a result, or a `switch` or `if` used as a value.
  private func isOnlyStatementOfAClosureOrObserver(_ node: CodeBlockItemSyntax) -> Bool {
    guard let list = node.parent?.as(CodeBlockItemListSyntax.self), list.count == 1,
      let owner = list.parent
    else { return false }
    if let closure = owner.as(ClosureExprSyntax.self) { return !returnsIntoAValue(closure) }
    let accessor = owner.as(CodeBlockSyntax.self)?.parent?.as(AccessorDeclSyntax.self)
    return accessor.map { ["set", "willSet", "didSet"].contains($0.accessorSpecifier.text) }
      ?? false
  }

  /// A closure passed to a call whose result is used (`let tasks = lock.withLockedValue { … }`,
  /// `return xs.map { … }`): its only statement is its value, and leaving it out would not
  /// compile.
  private func returnsIntoAValue(_ closure: ClosureExprSyntax) -> Bool {
    var current = Syntax(closure).parent
    while let node = current,
      node.is(LabeledExprSyntax.self) || node.is(LabeledExprListSyntax.self)
        || node.is(MultipleTrailingClosureElementSyntax.self)
        || node.is(MultipleTrailingClosureElementListSyntax.self)
    {
      current = node.parent
    }
    guard var call = current, call.is(FunctionCallExprSyntax.self) else { return false }
    while let parent = call.parent, parent.is(TryExprSyntax.self) || parent.is(AwaitExprSyntax.self)
    {
      call = parent
    }
    return !isStatement(call)
  }

  private func isStatement(_ node: Syntax?) -> Bool {
    guard let parent = node?.parent else { return true }
    return parent.is(ExpressionStmtSyntax.self) || parent.is(CodeBlockItemSyntax.self)
  }

  // MARK: Helpers

  private func isInsideGuardCall(_ node: some SyntaxProtocol) -> Bool {
    var current = node.parent
    while let next = current {
      if let call = next.as(FunctionCallExprSyntax.self),
        let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
        MutantFinder.guardCalls.contains(name)
      {
        return true
      }
      current = next.parent
    }
    return false
  }

  private func isTextOrCollection(_ expression: ExprSyntax) -> Bool {
    expression.is(StringLiteralExprSyntax.self) || expression.is(ArrayExprSyntax.self)
      || expression.is(DictionaryExprSyntax.self)
  }

  private func short(_ text: String) -> String {
    text.count <= 60 ? text : String(text.prefix(57)) + "…"
  }

  /// The node's text on one line, comments left out; nil when a token itself spans lines
  /// (a multi-line string), which the schema must not copy (lines would move).
  func flat(_ node: some SyntaxProtocol, replacing edits: [(Syntax, String)] = []) -> String? {
    let ranges = edits.map {
      (
        start: $0.0.positionAfterSkippingLeadingTrivia.utf8Offset,
        end: $0.0.endPositionBeforeTrailingTrivia.utf8Offset, text: $0.1
      )
    }
    var out = ""
    var previousEnd: Int?
    var skipUntil = -1
    for token in node.tokens(viewMode: .sourceAccurate) {
      let start = token.positionAfterSkippingLeadingTrivia.utf8Offset
      let end = token.endPositionBeforeTrailingTrivia.utf8Offset
      if start < skipUntil { continue }
      let separator = previousEnd.map { $0 != start } ?? false ? " " : ""
      if let edit = ranges.first(where: { $0.start == start }) {
        out += separator + edit.text
        skipUntil = edit.end
        previousEnd = edit.end
        continue
      }
      if token.text.contains("\n") || token.text.contains("\r") { return nil }
      out += separator + token.text
      previousEnd = end
    }
    return out
  }

  private func add(
    _ node: some SyntaxProtocol, _ kind: MutationOperator, original: String, replacement: String,
    edits: [(TokenSyntax, String)], isStatement: Bool = false
  ) {
    add(
      node, kind, original: original, replacement: replacement,
      edits: edits.map { (Syntax($0.0), $0.1) }, isStatement: isStatement)
  }

  private func add(
    _ node: some SyntaxProtocol, _ kind: MutationOperator, original: String, replacement: String,
    edits: [(Syntax, String)], isStatement: Bool = false
  ) {
    guard let mutated = flat(node, replacing: edits) else { return }
    // The line of the change itself (the operator, the literal), which coverage is read at.
    let anchor = edits.first.map { $0.0 } ?? Syntax(node)
    let location = anchor.startLocation(converter: converter)
    found.append(
      Mutant(
        id: 0, file: file, line: location.line, column: location.column, mutationOperator: kind,
        original: original, replacement: replacement,
        start: node.positionAfterSkippingLeadingTrivia.utf8Offset,
        end: node.endPositionBeforeTrailingTrivia.utf8Offset,
        mutatedText: isStatement && kind == .droppedStatement ? "" : mutated,
        isStatement: isStatement))
  }
}

extension MutantFinder {
  /// The innermost declaration with a body (a function, an initializer, an accessor, a
  /// property) around `offset`; the whole file when there is none.
  public static func declarationRange(in source: String, around offset: Int) -> Range<Int> {
    let tree = Parser.parse(source: source)
    let whole = 0..<source.utf8.count
    guard whole.contains(offset), let token = tree.token(at: AbsolutePosition(utf8Offset: offset))
    else { return whole }
    var current: Syntax? = Syntax(token)
    while let node = current {
      if node.is(FunctionDeclSyntax.self) || node.is(InitializerDeclSyntax.self)
        || node.is(AccessorDeclSyntax.self) || node.is(VariableDeclSyntax.self)
        || node.is(DeinitializerDeclSyntax.self) || node.is(SubscriptDeclSyntax.self)
      {
        return node.position.utf8Offset..<node.endPosition.utf8Offset
      }
      current = node.parent
    }
    return whole
  }
}
