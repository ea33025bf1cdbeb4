import Foundation
import Testing
import VRenderTestSupport

/// File names are bytes: names that are not UTF-8 reach the file they name (Swift's
/// `CommandLine.arguments` would turn `\xff` into U+FFFD) and are shown escaped (`\xff`); names
/// of 255 bytes, the most Linux allows, can be read and written (the temporary file beside the
/// output gets a shorter name). `Process` cannot pass such bytes, so these runs go through bash.
@Suite struct FileNameTests {
    let folder = GuardedRun.folder()
    static let take = TestMedia.path("small_a.mov")

    /// Frames ffprobe decodes from the file bash names `name` (a bash word, e.g. `"$D/a"`).
    func frames(_ name: String) -> String {
        GuardedRun.shell("ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 \(name)",
                         ["D": folder]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Entries in the folder, hidden ones included, counted by bash (no name decoding).
    func entryCount() -> String {
        GuardedRun.shell(#"ls -A "$D" | wc -l"#, ["D": folder]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func namesThatAreNotUTF8ReachTheirFilesAndAreShownEscaped() {
        defer { GuardedRun.remove(folder) }
        let run = GuardedRun.shell(#"""
            cp "$TAKE" "$D/take-$(printf '\377\376').mov"
            vrender concat "$D/take-$(printf '\377\376').mov" -o "$D/out-$(printf '\377').mov" --progress none
            """#, ["D": folder, "TAKE": Self.take])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.hasPrefix("\(folder)/out-\\xff.mov: 1.00 s, 30 frames"), "\(run.standardOutput)")
        #expect(run.standardError.contains("-> \(folder)/out-\\xff.mov"), "\(run.standardError)")
        #expect(frames(#""$D/out-$(printf '\377').mov""#) == "30")
        #expect(entryCount() == "2", "the take and the output, no temporary file")
    }

    /// A valid name holding a code point of the escape block itself (U+10FE80) round-trips too.
    @Test func aNameHoldingAnEscapeCodePointRoundTrips() {
        defer { GuardedRun.remove(folder) }
        let run = GuardedRun.shell(#"""
            cp "$TAKE" "$D/take-$(printf '\364\217\272\200').mov"
            vrender concat "$D/take-$(printf '\364\217\272\200').mov" -o "$D/out.mov" --progress none
            """#, ["D": folder, "TAKE": Self.take])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(frames(#""$D/out.mov""#) == "30")
    }

    @Test func aMissingFileIsNamedWithItsBytesEscaped() {
        defer { GuardedRun.remove(folder) }
        let missing = GuardedRun.shell(#"vrender concat "$D/missing-$(printf '\377').mov" -o "$D/o.mov""#, ["D": folder])
        GuardedRun.expectFailure(missing, mentions: "\(folder)/missing-\\xff.mov: no such file")
        // A newline in a name would break the one-line error: shown as \x0a.
        let newline = GuardedRun.vrender(["concat", folder + "/two\nlines.mov", "-o", folder + "/o.mov"])
        GuardedRun.expectFailure(newline, mentions: "\(folder)/two\\x0alines.mov: no such file")
        #expect(GuardedRun.contents(of: folder).isEmpty)
    }

    /// 255 bytes, the longest name Linux allows, as input and as output: the temporary file's
    /// name (`.NAME.<pid>-<n>.vrender-partial`) is cut short to fit, between characters.
    @Test(arguments: [String(repeating: "o", count: 251), String(repeating: "é", count: 125) + "x"])
    func namesOf255BytesAreReadAndWritten(stem: String) throws {
        defer { GuardedRun.remove(folder) }
        let input = folder + "/" + String(repeating: "t", count: 251) + ".mov"
        let output = folder + "/" + stem + ".mov"
        #expect((output as NSString).lastPathComponent.utf8.count == 255)
        try FileManager.default.copyItem(atPath: Self.take, toPath: input)
        for codec in ["copy", "h264"] {
            let run = GuardedRun.vrender(["concat", input, "-o", output, "--codec", codec, "--overwrite", "--progress", "none"])
            #expect(run.status == 0, "\(run.standardError)")
            #expect(GuardedRun.probe(output)?.frames == 30)
            #expect(GuardedRun.contents(of: folder).count == 2, "\(GuardedRun.contents(of: folder))")
        }
    }
}
