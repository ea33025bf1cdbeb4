import Foundation
import Testing
import VRenderTestSupport

/// An export whose output cannot be written (a file-size limit, a read-only folder, a full disk,
/// its folder removed while it runs) exits 1 with one error line naming the output and why,
/// leaves nothing behind (the temporary file is removed), and never touches its takes.
///
/// The full disk and the read-only folder are made without root where the system allows user
/// namespaces (Debian's default): `unshare --user --map-root-user --mount` gives the run a
/// mount namespace of its own, in which a 256 KB tmpfs, or a read-only bind mount of the
/// folder, exists for that run only. (A plain `chmod a-w` does not stop root, which CI is.)
@Suite struct ExportWriteFailureTests {
    let folder = GuardedRun.folder()
    static let takes = ["same_1.mov", "same_2.mov"].map(TestMedia.path)

    /// Runs `body` and checks that the takes' bytes are the same after it as before.
    func keepingTakes(_ takes: [String], _ body: () throws -> Void) rethrows {
        let before = takes.map { FileManager.default.contents(atPath: $0) }
        try body()
        #expect(takes.map { FileManager.default.contents(atPath: $0) } == before, "the takes are never modified")
    }

    /// Past RLIMIT_FSIZE a write raises SIGXFSZ, which vrender ignores so that the write fails
    /// with EFBIG: reported, the temporary file removed.
    @Test(arguments: [["-o", "out.mov"], ["-o", "out.mkv", "--codec", "h264", "--crf", "0", "--preset", "ultrafast"]])
    func aFileSizeLimitFailsNamingTheOutput(_ options: [String]) {
        defer { GuardedRun.remove(folder) }
        keepingTakes(Self.takes) {
            let output = folder + "/" + options[1]
            let arguments = (["concat"] + Self.takes + ["--progress", "none"] + options.dropFirst(2) + ["-o", output])
                .map { "'\($0)'" }.joined(separator: " ")
            let run = GuardedRun.shell("ulimit -f 200\nvrender \(arguments)")  // 200 KB
            GuardedRun.expectFailure(run, mentions: "\(output): cannot write (File too large)")
            #expect(GuardedRun.contents(of: folder).isEmpty, "\(GuardedRun.contents(of: folder))")
        }
    }

    @Test func aReadOnlyFolderIsRefusedBeforeAnyWork() {
        defer { GuardedRun.remove(folder) }
        keepingTakes(Self.takes) {
            let run = GuardedRun.shell(#"""
                unshare --user --map-root-user --mount bash -c '
                  mount --bind "$D" "$D" && mount -o remount,bind,ro "$D" || exit 99
                  /usr/bin/timeout -k 10 120 "$VRENDER_BINARY" concat "$@" -o "$D/out.mov"' - "$T1" "$T2"
                """#, ["D": folder, "T1": Self.takes[0], "T2": Self.takes[1]])
            GuardedRun.expectFailure(run, mentions: "\(folder)/out.mov: directory \(folder) is not writable (Read-only file system)")
            #expect(!run.standardError.contains("plan:"), "refused before the takes are read")
            #expect(GuardedRun.contents(of: folder).isEmpty)
        }
    }

    /// A full disk: a 256 KB tmpfs. The script lists the tmpfs after the run, inside the namespace.
    @Test(arguments: [["out.mov"], ["out.mkv", "--filter", "mono", "--preset", "ultrafast"]])
    func aFullDiskFailsNamingTheOutput(_ options: [String]) {
        defer { GuardedRun.remove(folder) }
        keepingTakes(Self.takes) {
            let run = GuardedRun.shell(#"""
                unshare --user --map-root-user --mount bash -c '
                  mount -t tmpfs -o size=256k tmpfs "$D" || exit 99
                  name=$1; shift
                  /usr/bin/timeout -k 10 120 "$VRENDER_BINARY" concat "$T1" "$T2" -o "$D/$name" --progress none "$@"
                  status=$?
                  echo "left: $(ls -A "$D")"
                  exit $status' -
                """# + " " + options.joined(separator: " "), ["D": folder, "T1": Self.takes[0], "T2": Self.takes[1]])
            GuardedRun.expectFailure(run, mentions: "\(folder)/\(options[0]): cannot write (No space left on device)")
            #expect(run.standardOutput.hasSuffix("left: \n"), "\(run.standardOutput)")
        }
    }

    /// The output's folder is removed while the export runs, after its first progress report
    /// (read from the child's standard error, so no sleep decides when).
    @Test func theOutputFolderRemovedMidRunFailsNamingIt() throws {
        defer { GuardedRun.remove(folder) }
        let outputFolder = folder + "/out"
        try FileManager.default.createDirectory(atPath: outputFolder, withIntermediateDirectories: false)
        let takes = ["same_1.mov", "same_2.mov", "same_3.mov"].map(TestMedia.path)
        try keepingTakes(takes) {
            let child = try ProgressWatcher(arguments: ["concat"] + takes + ["-o", outputFolder + "/out.mov", "--codec", "h264",
                                                                             "--preset", "ultrafast", "--progress", "plain"])
            let first = child.readUntil("progress=")
            #expect(first.hasSuffix("progress=continue"), "the export must still be running: \(first)")
            try FileManager.default.removeItem(atPath: outputFolder)
            let (status, standardError) = child.finish()
            GuardedRun.expectFailure(status: status, standardError: standardError, mentions: "\(outputFolder)/out.mov: its folder \(outputFolder) was removed during the export")
            #expect(GuardedRun.contents(of: folder).isEmpty)
        }
    }
}

/// A `vrender` run whose standard error is read as it comes, so a test can act at a point of
/// the run (after the first progress report) rather than after a guessed delay.
final class ProgressWatcher {
    private let process = Process()
    private let errors = Pipe()
    private var text = ""

    init(arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["-k", "10", String(GuardedRun.limit), CommandLineTests.binary] + arguments
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Reads standard error until a line starting with `prefix` is complete (or the stream ends);
    /// returns everything read, ending with that line.
    func readUntil(_ prefix: String) -> String {
        while true {
            if let line = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().first(where: { $0.hasPrefix(prefix) }),
               let end = text.range(of: line)?.upperBound {
                return String(text[..<end])
            }
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { return text }
            text += String(decoding: chunk, as: UTF8.self)
        }
    }

    /// Reads the rest and waits for the exit: the exit status and all of standard error.
    func finish() -> (status: Int32, standardError: String) {
        text += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
