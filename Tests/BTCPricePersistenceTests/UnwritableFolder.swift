import Foundation

/// Makes a store file's folder unwritable and puts it back, for the contract's failed-save check.
/// Replacing the folder by a file breaks writing even for root, which ignores modes.
struct UnwritableFolder {
  /// The store's file.
  let fileURL: URL
  /// Where the folder waits meanwhile (inside the test's own temporary folder).
  let parking: URL

  func breakWriting() throws {
    let parent = fileURL.deletingLastPathComponent()
    try FileManager.default.moveItem(at: parent, to: parking)
    try Data("not a folder".utf8).write(to: parent)
  }

  func restoreWriting() throws {
    let parent = fileURL.deletingLastPathComponent()
    try FileManager.default.removeItem(at: parent)
    try FileManager.default.moveItem(at: parking, to: parent)
  }
}
