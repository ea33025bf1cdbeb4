import Foundation
import VRenderMedia

/// The take files in a folder, found by name rather than through `takes.json`: a take whose
/// capture was killed has a file but no entry.
enum TakeFiles {
    /// Names of the regular files in `directory` that vrender records takes into
    /// (`segment_….mov`, numbered or the seed's unnumbered ones), in take-number order, then byte
    /// order; unnumbered names last. Symbolic links are left out: recovery rewrites files, and a
    /// link may lead anywhere. Hidden files (AtomicFile's temporaries) never match the prefix.
    static func names(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { name in
            guard name.hasPrefix(TakesFolder.takeFilePrefix), (name as NSString).pathExtension.lowercased() == "mov" else {
                return false
            }
            var info = stat()
            return lstat(TakesFolder.join(directory, name), &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        }.sorted(by: inTakeOrder)
    }

    /// Take-number order (`segment_0009_…` before `segment_0010_…`), byte order among equals,
    /// names without a number after all numbered ones.
    static func inTakeOrder(_ a: String, _ b: String) -> Bool {
        let numbers = (TakesFolder.takeNumber(inFileName: a) ?? .max, TakesFolder.takeNumber(inFileName: b) ?? .max)
        if numbers.0 != numbers.1 { return numbers.0 < numbers.1 }
        return a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// True when the file has a `mfra` trailer (or is a finished plain movie); false when its
    /// writer never finished it; nil when it is not a QuickTime-family file at all.
    static func isFinished(_ path: String) -> Bool? {
        guard let layout = try? QuickTimeLayout.read(path) else { return nil }
        return layout.isFinished
    }
}

/// Which processes have a file open, from `/proc/<pid>/fd` (Linux). A take that another process
/// still writes (a capture running beside `takes recover`) looks unfinished, and replacing it
/// would lose every frame written after the copy: such a take is left alone.
enum OpenFiles {
    /// For each of `paths` that another process has open, that process's id. Processes whose
    /// descriptors cannot be read (another user's) are not seen.
    static func holders(of paths: [String]) -> [String: Int32] {
        var wanted: [FileIdentity: String] = [:]
        for path in paths {
            if let identity = FileIdentity(path: path) { wanted[identity] = path }
        }
        guard !wanted.isEmpty else { return [:] }
        let me = getpid()
        var found: [String: Int32] = [:]
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for pid in processes.compactMap({ Int32($0) }) where pid != me {
            let descriptors = "/proc/\(pid)/fd"
            for descriptor in (try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? [] {
                // stat(2) follows the descriptor's link to the open file itself.
                if let identity = FileIdentity(path: descriptors + "/" + descriptor), let path = wanted[identity] {
                    found[path] = pid
                }
            }
        }
        return found
    }

    /// A file as the kernel knows it: device and inode, whatever name it is reached by.
    private struct FileIdentity: Hashable {
        let device: UInt64
        let inode: UInt64

        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }
}
