import Foundation
import FuzzSupport

/// The takes folder every input is read in, made once per process:
///
///     SCRATCH/outside.mov                    a file outside the folder
///     SCRATCH/takes/segment_0001_A.mov, .png a take and its thumbnail
///     SCRATCH/takes/sub/clip.mov             a take in a subfolder (allowed)
///     SCRATCH/takes/link-in.mov  -> segment_0001_A.mov        stays inside
///     SCRATCH/takes/link-out.mov -> ../outside.mov            leads out
///     SCRATCH/takes/dir-out      -> ..                        leads out (as a folder)
///     SCRATCH/takes/abs-out.mov  -> SCRATCH/outside.mov       leads out (absolute)
///
/// The seeds in testdata/fuzz/takes-json/ and the dictionary name these, so mutations reach every
/// branch of the entry checks.
enum FolderFixture {
    static let folder: String = {
        let scratch = FuzzScratch.directory
        let folder = scratch + "/takes"
        let files = [scratch + "/outside.mov", folder + "/segment_0001_A.mov", folder + "/segment_0001_A.png",
                     folder + "/sub/clip.mov"]
        let links = [("link-in.mov", "segment_0001_A.mov"), ("link-out.mov", "../outside.mov"),
                     ("dir-out", ".."), ("abs-out.mov", scratch + "/outside.mov")]
        do {
            try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
            for file in files { precondition(FileManager.default.createFile(atPath: file, contents: Data("x".utf8))) }
            for (name, destination) in links {
                try FileManager.default.createSymbolicLink(atPath: folder + "/" + name, withDestinationPath: destination)
            }
        } catch {
            preconditionFailure("fuzz harness: cannot make the takes folder in \(scratch): \(error)")
        }
        return folder
    }()

    /// The folder's real path (no links), what accepted entries must resolve under.
    static let realFolder: String = {
        guard let resolved = realpath(folder, nil) else { preconditionFailure("fuzz harness: \(folder) vanished") }
        defer { free(resolved) }
        return String(cString: resolved)
    }()
}
