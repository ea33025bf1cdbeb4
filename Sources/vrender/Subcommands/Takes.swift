import ArgumentParser
import Foundation
import VRenderCore
import VRenderRecording

extension VRender {
    /// `vrender takes`: look after a folder of recorded takes. The folder logic lives in
    /// VRenderRecording's `TakesFolder`; errors go up to `VRender.main`, which prints them.
    struct Takes: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List, remove, preview or recover the takes in a folder.",
            subcommands: [List.self, Remove.self, Thumbs.self, Recover.self])

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List takes: duration, frames, drops, codec.")

            @Argument(help: ArgumentHelp("Folder with takes.json.", valueName: "dir"))
            var directory: String

            @Flag(help: "Print takes.json's entries as JSON.")
            var json = false

            func run() throws {
                let manifest = try TakesFolder.manifest(in: directory)
                if json {
                    try JSONOutput.print(manifest.takes)
                } else {
                    print(TakesTable.text(manifest.takes))
                }
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
