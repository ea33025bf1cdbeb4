import Foundation
import FuzzSupport
import VRenderCore
import VRenderTakes

// Fuzz target: a takes folder's `takes.json` as `vrender takes` and `vrender concat DIR` read it.
// The input becomes DIR/takes.json in a fixed folder (FolderFixture) holding a take, links that
// stay inside and links that lead out; then `TakesFolder.manifest(in:)` and
// `TakesFolder.takePaths(in:)` run as the commands run them. Besides not crashing, they must keep
// the folder's promise: every path they accept resolves inside the folder.

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    _ = FolderFixture.folder   // made once, before the first input, so its cost is not the target's
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTakesManifest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let folder = FolderFixture.folder
    FuzzInput(data, size).write(to: folder + "/" + TakesManifest.fileName)
    if let manifest = refusingOnlyWithInputErrors({ try TakesFolder.manifest(in: folder) }) {
        for name in manifest.takes.flatMap({ [$0.file, $0.thumbnail].compactMap { $0 } }) {
            requireInside(folder + "/" + name, listed: name)
        }
    }
    if let (paths, order) = refusingOnlyWithInputErrors({ try TakesFolder.takePaths(in: folder) }) {
        precondition(order == .manifest, "a folder with takes.json was read in file-name order")
        for path in paths {
            precondition(FileManager.default.fileExists(atPath: path), "takePaths returned a missing file \(path)")
            requireInside(path, listed: path)
        }
    }
    return 0
}

/// `body`'s result, or nil when it refused the folder with an input error (a correct answer to a
/// bad takes.json); any other error is a finding.
private func refusingOnlyWithInputErrors<T>(_ body: () throws -> T) -> T? {
    do {
        return try body()
    } catch let error as VRenderError {
        precondition(error.kind == .input, "takes.json refused with a \(error.kind) error: \(error)")
        return nil
    } catch {
        preconditionFailure("TakesFolder threw something other than a VRenderError: \(error)")
    }
}

/// A name that does not exist cannot lead anywhere; one that does must resolve inside the folder.
private func requireInside(_ path: String, listed name: String) {
    guard let resolved = realpath(path, nil) else { return }
    defer { free(resolved) }
    let target = String(cString: resolved)
    precondition(target.hasPrefix(FolderFixture.realFolder + "/"),
                 "takes.json entry '\(name)' was accepted but resolves outside the folder, to \(target)")
}
