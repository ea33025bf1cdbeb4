import Foundation
import Testing
import VRenderTestSupport

/// Every way a command can fail, run as a user would: each prints exactly one
/// `vrender: error:` line, naming what was at fault, and exits with the documented status
/// (2 for a usage error, 1 for a runtime or input error).
@Suite struct ErrorPathTests {
    struct Case: Sendable, CustomTestStringConvertible {
        /// Arguments; `$D` stands for the fixture folder, `$M` for the test media folder.
        var arguments: [String]
        var status: Int32
        /// What the error line must contain (after `$D`/`$M` are replaced).
        var mentions: String

        init(_ arguments: [String], _ status: Int32, _ mentions: String) {
            self.arguments = arguments
            self.status = status
            self.mentions = mentions
        }

        var testDescription: String { arguments.joined(separator: " ") }
    }

    /// Files the cases point at, made once: an empty folder, a takes folder listing no takes, a
    /// broken takes.json, a text file, a bad script, a plain file where a folder is expected,
    /// and an existing output.
    static let fixture: String = {
        let folder = TestMedia.scratchDirectory()
        let files = FileManager.default
        for name in ["empty", "takes", "broken"] {
            try? files.createDirectory(atPath: folder + "/" + name, withIntermediateDirectories: false)
        }
        let contents = [
            "takes/takes.json": #"{"takes": []}"#, "broken/takes.json": "{", "notes.txt": "not a video\n",
            "bad.actions": "at 1s zom 2\n", "file": "", "exists.mov": "taken",
        ]
        for (name, text) in contents {
            precondition(files.createFile(atPath: folder + "/" + name, contents: Data(text.utf8)), "cannot make \(name)")
        }
        return folder
    }()

    static let capture = ["capture", "--device", "synthetic", "--out", "$D/c", "--duration", "1s"]
    static let concat = ["concat", "$M/small_a.mov"]

    static let cases: [Case] = [
        Case(["bogus"], 2, "Unexpected argument 'bogus'"),
        // capture
        Case(["capture", "--out", "$D/c"], 2, "Missing expected argument '--device <device>'"),
        Case(capture + ["--takes", "0"], 2, "--takes must be at least 1"),
        Case(capture + ["--duration", "soon"], 2, "--duration 'soon' is not a positive time"),
        Case(capture + ["--fps", "fast"], 2, "--fps 'fast' is not a frame rate"),
        Case(capture + ["--size", "13x7"], 2, "--size '13x7' is not WxH"),
        Case(capture + ["--preroll", "x"], 2, "--preroll 'x' is not a time"),
        Case(capture + ["--lens", "3"], 2, "--lens must be 0.5, 1 or 2"),
        Case(capture + ["--codec", "vp8"], 2, "--codec"),
        Case(capture + ["--position", "side"], 2, "--position"),
        Case(["capture", "--device", "/dev/video-missing", "--out", "$D/c", "--duration", "1s"], 1, "/dev/video-missing: "),
        Case(["capture", "--device", "synthetic:seed=x", "--out", "$D/c", "--duration", "1s"], 1,
             "synthetic:seed=x: not a synthetic camera"),
        Case(capture + ["--size", "8x8"], 2, "--size: the synthetic camera renders even sizes"),
        Case(capture + ["--script", "$D/missing.actions"], 1, "$D/missing.actions: cannot read the script"),
        Case(["capture", "--device", "synthetic", "--out", "$D/c", "--script", "$D/bad.actions"], 1,
             "$D/bad.actions:1: unknown action 'zom'"),
        Case(["capture", "--device", "synthetic", "--out", "$D/c"], 2, "--duration: needed when standard input is not a terminal"),
        Case(["capture", "--device", "synthetic", "--out", "$D/file/takes", "--duration", "1s"], 1,
             "$D/file/takes: cannot create the folder"),
        // takes
        Case(["takes", "list", "$D/missing"], 1, "$D/missing: no such folder"),
        Case(["takes", "list", "$D/empty"], 1, "$D/empty: no takes.json"),
        Case(["takes", "list", "$D/broken"], 1, "$D/broken/takes.json: is not a valid takes manifest"),
        Case(["takes", "rm", "$D/missing", "1"], 1, "$D/missing: no such folder"),
        Case(["takes", "rm", "$D/takes"], 2, "name at least one take to remove"),
        Case(["takes", "rm", "$D/takes", "9"], 1, "9: no such take in $D/takes"),
        Case(["takes", "thumbs", "$D/takes", "--columns", "0"], 2, "--columns must be at least 1"),
        Case(["takes", "thumbs", "$D/takes", "--width", "15"], 2, "--width must be even"),
        Case(["takes", "thumbs", "$D/missing", "-o", "$D/sheet.png"], 1, "$D/missing: no such folder"),
        Case(["takes", "thumbs", "$D/empty", "-o", "$D/sheet.png"], 1, "$D/empty: no takes.json"),
        Case(["takes", "thumbs", "$D/takes", "-o", "$D/sheet.png"], 1, "$D/takes: has no takes"),
        // concat
        Case(["concat"], 2, "give at least one input take"),
        Case(concat + ["--crf", "99"], 2, "--crf must be between 0 and 51"),
        Case(concat + ["--preset", "warp"], 2, "--preset 'warp'"),
        Case(concat + ["--size", "1281x720"], 2, "--size '1281x720'"),
        Case(concat + ["--fps", "-1"], 2, "--fps '-1'"),
        Case(concat + ["--audio-track", "0"], 2, "--audio-track must be 1 or more"),
        Case(concat + ["-o", "$D/noext"], 2, "has no file extension"),
        Case(concat + ["-o", "$D/x.avi"], 2, "not .avi"),
        Case(concat + ["--codec", "vp8"], 2, "--codec"),
        Case(concat + ["--progress", "loud"], 2, "--progress"),
        Case(concat + ["--gpu", "quantum"], 2, "--gpu"),
        Case(concat + ["$D/missing.mov", "-o", "$D/o1.mov"], 1, "$D/missing.mov: no such file"),
        Case(concat + ["$D/notes.txt", "-o", "$D/o2.mov"], 1, "$D/notes.txt: "),
        Case(concat + ["$D/empty", "-o", "$D/o3.mov"], 1, "$D/empty: has no takes"),
        Case(concat + ["-o", "$D/exists.mov"], 1, "already exists (use --overwrite to replace it)"),
        Case(concat + ["--filter", "bogus", "-o", "$D/o4.mov"], 2, "--filter: unknown filter 'bogus'"),
        Case(concat + ["-o", "$D/missing-folder/o.mov"], 1, "does not exist"),
        // filters
        Case(["filters", "--at", "x"], 2, "--at 'x' is not a time"),
        Case(["filters", "--gpu", "quantum"], 2, "--gpu"),
        Case(["filters", "--preview", "$D/missing.mov", "-o", "$D/p1.png"], 1, "$D/missing.mov: no such file"),
        Case(["filters", "--preview", "$D/notes.txt", "-o", "$D/p2.png"], 1, "$D/notes.txt: "),
        Case(["filters", "--preview", "$M/small_a.mov", "--gpu", "cpu", "-o", "$D/missing-folder/p.png"], 1,
             "$D/missing-folder/p.png: cannot create"),
        // devices and demo
        Case(["devices", "--bogus"], 2, "Unknown option '--bogus'"),
        Case(["demo", "--size", "3x3"], 2, "--size '3x3' is not WxH"),
        Case(["demo", "--gpu", "quantum"], 2, "--gpu"),
        Case(["demo", "--out", "$D/file"], 1, "$D/file/takes: cannot create the folder"),
    ]

    private static func expand(_ text: String) -> String {
        text.replacingOccurrences(of: "$D", with: fixture).replacingOccurrences(of: "$M", with: TestMedia.directory)
    }

    @Test(arguments: cases)
    func oneErrorLineAndTheDocumentedStatus(_ test: Case) {
        let result = ProgramRun.run(CommandLineTests.binary, test.arguments.map(Self.expand))
        #expect(result.status == test.status, "\(result.standardError)")
        let errors = result.standardError.split(separator: "\n").filter { $0.contains("vrender: error:") }
        #expect(errors.count == 1, "\(result.standardError)")
        #expect(errors.first?.hasPrefix("vrender: error: ") == true, "\(result.standardError)")
        #expect(errors.first?.contains(Self.expand(test.mentions)) == true, "\(result.standardError)")
    }
}
