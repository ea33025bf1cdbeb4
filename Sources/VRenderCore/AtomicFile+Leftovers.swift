import Glibc

/// Temporaries that a killed vrender left: `.NAME.<pid>-<random>.vrender-partial` files whose
/// process is gone. A kill -9 or a power cut cannot run `discard()`, so the next command that
/// works in the folder removes them (and says so), instead of letting them pile up unseen.
///
/// Only regular files with the temporary's exact shape whose process no longer runs are
/// removed: a live process's temporary is left to it, and a link with such a name (planted, not
/// vrender's) is left as it is.
extension AtomicFile {
    /// Removes the leftovers in `folder`; `target` limits it to the temporaries of that one file
    /// name (an export cleans up after its own earlier runs only). Returns the names removed.
    @discardableResult
    public static func removeLeftovers(in folder: FolderHandle, target: String? = nil) -> [String] {
        let names = (try? folder.names()) ?? []
        var removed: [String] = []
        for name in names.sorted() {
            guard let (stem, pid) = leftoverShape(name), target.map({ $0.hasPrefix(stem) }) ?? true,
                  !isRunning(pid), let info = folder.status(name), info.st_mode & S_IFMT == S_IFREG else { continue }
            if folder.remove(name) { removed.append(name) }
        }
        return removed
    }

    /// `(NAME, pid)` of a temporary's name `.NAME.<pid>-<hex>.vrender-partial` (an older
    /// vrender's `<pid>-<serial>` included); nil for any other name.
    static func leftoverShape(_ name: String) -> (stem: String, pid: pid_t)? {
        guard name.hasPrefix("."), name.hasSuffix(temporarySuffix) else { return nil }
        let middle = name.dropFirst().dropLast(temporarySuffix.count)
        guard let dot = middle.lastIndex(of: ".") else { return nil }
        let marker = middle[middle.index(after: dot)...].split(separator: "-", omittingEmptySubsequences: false)
        guard marker.count == 2, let pid = pid_t(marker[0]), pid > 0, !marker[1].isEmpty,
              marker[1].allSatisfy(\.isHexDigit) else { return nil }
        return (String(middle[..<dot]), pid)
    }

    /// True while process `pid` exists (`EPERM`: it exists, and belongs to someone else).
    private static func isRunning(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || SystemError.last.code == EPERM
    }
}
