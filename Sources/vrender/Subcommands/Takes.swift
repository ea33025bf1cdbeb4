import ArgumentParser
import Foundation
import VRenderCore
import VRenderImaging
import VRenderMedia
import VRenderRecording

extension VRender {
    /// `vrender takes`: look after a folder of recorded takes. The folder logic lives in
    /// VRenderRecording's `TakesFolder`; errors go up to `VRender.main`, which prints them.
    struct Takes: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List, remove or preview the takes in a folder.",
            subcommands: [List.self, Remove.self, Thumbs.self])

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
                    return
                }
                func column(_ text: String, _ width: Int) -> String { text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0) }
                let fileWidth = manifest.takes.map(\.file.count).max() ?? 4
                print(column("#", 3) + column("file", fileWidth + 2) + "duration  frames  dropped  " + column("size", 11)
                      + column("fps", 6) + column("codec", 9) + "created")
                for (index, take) in manifest.takes.enumerated() {
                    print(column("\(index + 1)", 3) + column(take.file, fileWidth + 2)
                          + String(format: "%7.2fs  %6d  %7d  ", take.duration, take.frames, take.dropped)
                          + column("\(take.width)x\(take.height)", 11) + column(take.fps, 6) + column(take.codec, 9) + take.created)
                }
                let total = manifest.takes.reduce(0) { $0 + $1.duration }
                print(String(format: "%d take(s), %.2f s", manifest.takes.count, total))
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
                for take in try TakesFolder.remove(takes, from: directory) {
                    print("removed \(take.file)")
                }
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
                FFmpegLog.configure(verbose: false)
                // Through takes.json, as every takes command reads a folder.
                _ = try TakesFolder.manifest(in: directory)
                let (sheet, count) = try TakesFolder.contactSheet(of: directory, columns: columns, width: width)
                try PNGWriter.write(sheet, to: output)
                print("\(output): \(count) take(s), \(sheet.width)x\(sheet.height)")
            }
        }
    }
}
