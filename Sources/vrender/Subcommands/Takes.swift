import ArgumentParser
import Foundation
import VRenderCore
import VRenderRecording
import VRenderTakes
import VRenderWorkerCommands

extension VRender {
    /// `vrender takes`: look after a folder of recorded takes. The folder logic lives in
    /// VRenderTakes' `TakesFolder`; errors go up to `VRender.main`, which prints them.
    struct Takes: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List, reorder, trim, remove, preview, recover or caption the takes in a folder.",
            subcommands: [List.self, Order.self, Move.self, Trim.self, Remove.self, Thumbs.self, Recover.self, Captions.self])

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List takes: duration, frames, drops, codec.")

            @Argument(help: ArgumentHelp("Folder with takes.json.", valueName: "dir"))
            var directory: String

            @Flag(help: "Print takes.json's entries as JSON.")
            var json = false

            func run() throws {
                let listing = try TakesFolder.listing(in: directory)
                if json {
                    try JSONOutput.print(listing.takes)
                } else {
                    print(TakesTable.text(listing.takes, width: TextTable.standardOutputWidth))
                }
                // Take files takes.json does not list (a capture that was killed): said on stderr.
                if let note = listing.note { FileHandle.standardError.write(Data(TerminalText.fitted("takes: note: \(note)\n", for: STDERR_FILENO).utf8)) }
            }
        }

        struct Trim: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Set a take's in and out points (kept in takes.json; the file is never changed).",
                discussion: """
                    'concat DIR' then uses only the part from IN to OUT: the first picture is the \
                    one shown at IN, OUT itself is left out, and the sound is cut at the same \
                    instants. IN and OUT are times (1.5, 1.5s, 1500ms, 0:01.5) or frame numbers \
                    counted from 0 at the take's frame rate (45f); OUT may be 'end'. Both count \
                    from the take's first picture (a concat list's inpoint and outpoint are on \
                    the file's clock instead, as FFmpeg reads them). \
                    'vrender takes trim DIR N --clear' uses the whole take again.
                    """)

            @Argument(help: ArgumentHelp("Folder with takes.json.", valueName: "dir"))
            var directory: String

            @Argument(help: ArgumentHelp("The take: its number as 'takes list' shows it, or its file name.", valueName: "take"))
            var take: String

            @Argument(help: ArgumentHelp("First picture used: a time or a frame number (45f).", valueName: "in"))
            var start: String?

            @Argument(help: ArgumentHelp("Where the part used ends (left out): a time, a frame number or 'end'.", valueName: "out"))
            var end: String?

            @Flag(help: "Remove the take's trim.")
            var clear = false

            func validate() throws {
                if clear, start != nil { throw ValidationError("--clear takes no IN or OUT") }
                if !clear, start == nil || end == nil { throw ValidationError("give IN and OUT (or --clear)") }
                if let start, TrimPoint(start) == nil || TrimPoint(start) == .end {
                    throw ValidationError("IN '\(start)' is not a time (1.5, 1.5s, 0:01.5) or a frame number (45f)")
                }
                if let end, TrimPoint(end) == nil {
                    throw ValidationError("OUT '\(end)' is not a time (4, 4s, 0:04), a frame number (120f) or 'end'")
                }
            }

            func run() throws {
                let entry = try TakesFolder.setTrim(of: take, in: directory, from: start.flatMap(TrimPoint.init),
                                                    to: end.flatMap(TrimPoint.init))
                print(entry.trim.map { "\(entry.file): trim \($0)" } ?? "\(entry.file): whole take")
            }
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "rm", abstract: "Remove takes (their video, thumbnail and takes.json entry).")

            @Argument(help: ArgumentHelp("Folder with takes.json.", valueName: "dir"))
            var directory: String

            @Argument(help: ArgumentHelp("Takes to remove: numbers as 'takes list' shows them, or file names.", valueName: "take"))
            var takes: [String] = []

            func validate() throws {
                if takes.isEmpty { throw ValidationError("name at least one take to remove") }
            }

            func run() throws {
                let removed = try TakesFolder.remove(takes, from: directory)
                print(removed.map { "removed \($0.file)" }.joined(separator: "\n"))
            }
        }

        struct Thumbs: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Make a contact sheet: the frame at 0.05 s of every take, in order.")

            @Argument(help: ArgumentHelp("Folder with takes.json.", valueName: "dir"))
            var directory: String

            @Option(name: [.short, .customLong("output")], help: "PNG file to write.")
            var output = "sheet.png"

            @Option(help: "Thumbnails per row.")
            var columns = 4

            @Option(help: "Width of each thumbnail in pixels.")
            var width = 320

            func validate() throws {
                if columns < 1 { throw ValidationError("--columns must be at least 1") }
                if width < 16 || width > 4096 || width % 2 != 0 { throw ValidationError("--width must be even, 16…4096") }
            }

            func run() throws {
                let sheet = try TakesFolder.writeContactSheet(of: directory, to: output, columns: columns, width: width)
                print("\(output): \(sheet.takes) take(s), \(sheet.width)x\(sheet.height)")
            }
        }

        struct Recover: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Save unfinished takes (capture killed, power loss, disk full) and rebuild takes.json.",
                discussion: """
                    A take whose capture never finished is copied, every whole frame, into a finished \
                    file that replaces it once read back; takes missing from takes.json are listed \
                    again by take number; a damaged takes.json is kept as takes.json.damaged-<time>. \
                    Nothing is deleted. Exit status 1 when a take could not be saved.
                    """)

            @Argument(help: ArgumentHelp("Folder of takes (with or without takes.json).", valueName: "dir"))
            var directory: String

            @Flag(help: "Print the report as JSON.")
            var json = false

            func run() throws {
                let report = try TakesRecovery.recover(directory)
                if json {
                    try JSONOutput.print(report)
                } else {
                    print(RecoveryText.text(report))
                }
                if !report.allSaved { throw ExitCode(1) }
            }
        }
    }
}
