import SwiftSyntax

/// Whether an `#if` clause's code is compiled on the machine the runner runs on, so that a
/// mutant in a branch the compiler never sees (`#if canImport(Darwin)` on Linux) is not made:
/// no test here can kill it, and every suite that runs its function would be run for nothing
/// (Locked.swift's four Darwin mutants cost 200 s each before this).
///
/// Only what can be known from the host is decided: `os(…)`, `canImport(…)` of the C library's
/// and Apple's modules, `arch(…)`, `true`/`false`, and `!`, `&&`, `||` and parentheses of them.
/// Anything else (`compiler(…)`, `swift(…)`, a custom flag, another module) is unknown, and an
/// unknown branch is mutated as before.
enum CompiledHere {
  #if os(Linux)
    static let system = "Linux"
  #elseif os(macOS)
    static let system = "macOS"
  #else
    static let system = "other"
  #endif

  #if arch(x86_64)
    static let architecture = "x86_64"
  #elseif arch(arm64)
    static let architecture = "arm64"
  #else
    static let architecture = "other"
  #endif

  /// Modules whose presence is the host's: the C library's, and the Apple-only frameworks.
  static let knownModules: [String: Bool] = [
    "Glibc": system == "Linux", "Musl": false, "Darwin": system == "macOS",
    "SwiftUI": system == "macOS", "UIKit": false, "AppKit": system == "macOS",
    "WidgetKit": system == "macOS", "Security": system == "macOS",
    "FoundationEssentials": true,
  ]

  /// Which clauses of an `#if … #elseif … #else` are compiled here: true, false, or nil when
  /// not known. A clause is compiled when its condition holds and no earlier one's did.
  static func clauses(of node: IfConfigDeclSyntax) -> [Bool?] {
    var earlierHeld: Bool? = false
    return node.clauses.map { clause in
      let holds = clause.condition.map(value) ?? true
      let compiled: Bool?
      switch (earlierHeld, holds) {
      case (true, _), (_, false): compiled = false
      case (false, true): compiled = true
      default: compiled = nil
      }
      if holds == true {
        earlierHeld = true
      } else if holds == nil, earlierHeld == false {
        earlierHeld = nil
      }
      return compiled
    }
  }

  /// The value of an `#if` condition here, or nil when it cannot be known.
  static func value(_ condition: ExprSyntax) -> Bool? {
    if let literal = condition.as(BooleanLiteralExprSyntax.self) {
      return literal.literal.tokenKind == .keyword(.true)
    }
    if let tuple = condition.as(TupleExprSyntax.self), tuple.elements.count == 1,
      let only = tuple.elements.first
    {
      return value(only.expression)
    }
    if let prefix = condition.as(PrefixOperatorExprSyntax.self),
      prefix.operator.text == "!"
    {
      return value(prefix.expression).map(!)
    }
    if let infix = condition.as(InfixOperatorExprSyntax.self),
      let op = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text
    {
      let (left, right) = (value(infix.leftOperand), value(infix.rightOperand))
      switch op {
      case "&&":
        if left == false || right == false { return false }
        return left == true && right == true ? true : nil
      case "||":
        if left == true || right == true { return true }
        return left == false && right == false ? false : nil
      default:
        return nil
      }
    }
    if let call = condition.as(FunctionCallExprSyntax.self),
      let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
      call.arguments.count == 1, let argument = call.arguments.first
    {
      let text = argument.expression.trimmedDescription
      switch name {
      case "os": return text == system
      case "arch": return text == architecture
      case "canImport": return knownModules[text]
      default: return nil
      }
    }
    return nil
  }
}
