import Foundation
import VRenderCore

/// The export's output: written to a temporary file beside the target and renamed into place
/// only when complete (an `AtomicFile` that FFmpeg's muxer fills), so a failed or interrupted
/// export never leaves a half-written file and never replaces a good one.
package struct OutputFile: Sendable {
    package let path: String
    /// The name of the temporary file the muxer writes (hidden, beside `path`), for messages:
    /// the file is reached through `open()`'s descriptor.
    package var temporaryPath: String { file.temporaryPath }
    private let file: AtomicFile
    /// The folder the caller holds, if any: leftovers, size and failures are looked at there.
    private let folder: FolderHandle?

    /// The file extensions an export can write; the extension picks the container.
    package static let containerExtensions = ["mov", "mp4", "m4v", "mkv", "webm"]

    /// True when both paths lead to the same file, so an output never overwrites an input or
    /// another output of the same run: the same device and inode when both exist (links of
    /// every kind, names that are not UTF-8), else the same path once `.`, `..` and symbolic
    /// links are resolved (neither exists yet), and never when only one exists.
    static func isSameFile(_ first: String, _ second: String) -> Bool {
        switch (FileNames.status(first), FileNames.status(second)) {
        case let (one?, other?):
            return one.st_dev == other.st_dev && one.st_ino == other.st_ino
        case (nil, nil):
            func resolved(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }
            return resolved(first) == resolved(second)
        default:
            return false
        }
    }

    /// Checks the target before any work: not an input, not existing unless `overwrite`, in a
    /// directory that exists, with an extension FFmpeg can mux. `folder`: that directory, held
    /// open by the caller; the file is made and renamed in it, whatever `path`'s directory
    /// leads to by then (`ExportOptions.outputFolder`).
    package init(path: String, inputs: [String], overwrite: Bool, folder: FolderHandle? = nil) throws {
        let url = URL(fileURLWithPath: path)
        for input in inputs where Self.isSameFile(input, path) {
            throw VRenderError.output(path, "is also an input; an export never modifies its takes")
        }
        let file = AtomicFile(path: path, heldFolder: folder)
        try file.checkTarget(overwrite: overwrite)
        guard Self.containerExtensions.contains(url.pathExtension.lowercased()) else {
            throw VRenderError.output(path, "unsupported container '.\(url.pathExtension)' (use .mov, .mp4 or .mkv)")
        }
        self.path = path
        self.file = file
        self.folder = folder
    }

    /// Creates the temporary file (exclusively, no link followed) and returns its descriptor,
    /// which the muxer writes; the same descriptor on every call.
    package func open() throws -> Int32 {
        try file.open()
    }

    /// Flushes the finished temporary file to disk and renames it onto the target.
    package func commit() throws {
        try file.commit()
    }

    /// Removes the temporaries of this output that killed earlier runs left (their process is
    /// gone); returns their names.
    func removeLeftovers() -> [String] {
        let (directory, name) = FileNames.split(path)
        guard let folder = try? folder ?? FolderHandle.open(directory) else { return [] }
        return AtomicFile.removeLeftovers(in: folder, target: name)
    }

    /// Deletes the temporary file, if any.
    package func discard() {
        file.discard()
    }

    /// Bytes in the finished output.
    package var size: Int { file.size }

    /// The error to report for a write that failed with `error`: when the output's folder is
    /// gone (removed during the export), that is what the user must hear, whatever call
    /// noticed it first (the muxer reopening the file, the flush before the rename).
    func explainFailure(_ error: any Error) -> any Error {
        let directory = FileNames.split(path).directory
        guard folder?.isRemoved ?? (FileNames.status(directory) == nil) else { return error }
        return VRenderError.output(path, "its folder \(directory) was removed during the export")
    }
}
