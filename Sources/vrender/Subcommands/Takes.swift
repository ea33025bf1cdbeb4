import ArgumentParser
import Foundation
import VRenderCore
import VRenderMedia
import VRenderRecording

extension VRender {
    /// `vrender takes`: look after a folder of recorded takes.
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
                let manifest = try TakesFolder.manifest(directory)
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
                do {
                    var manifest = try TakesFolder.manifest(directory)
                    let doomed = try takes.map { try TakesFolder.index(of: $0, in: manifest, directory: directory) }
                    for index in Set(doomed).sorted(by: >) {
                        let take = manifest.takes.remove(at: index)
                        for file in [take.file, take.thumbnail].compactMap({ $0 }) {
                            unlink(directory + "/" + file)
                        }
                        print("removed \(take.file)")
                    }
                    try manifest.save(to: directory)
                } catch {
                    throw ErrorReporting.exitCode(for: error)
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
                do {
                    let manifest = try TakesFolder.manifest(directory)
                    guard !manifest.takes.isEmpty else { throw VRenderError.input(directory, "has no takes") }
                    let thumbnailer = Thumbnailer()
                    let images = try manifest.takes.map { take in
                        try FrameGrabber.frame(in: directory + "/" + take.file, atSeconds: 0.05) {
                            try thumbnailer.thumbnail(of: $0, width: width)
                        }
                    }
                    let sheet = RGBImage.grid(images, columns: columns)
                    try PNGWriter.write(sheet, to: output)
                    print("\(output): \(images.count) take(s), \(sheet.width)x\(sheet.height)")
                } catch {
                    throw ErrorReporting.exitCode(for: error)
                }
            }
        }
    }
}

/// Shared by the `takes` subcommands.
enum TakesFolder {
    static func manifest(_ directory: String) throws -> TakesManifest {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ErrorReporting.exitCode(for: VRenderError.input(directory, "no such folder"))
        }
        do {
            return try TakesManifest.load(from: directory)
        } catch {
            throw ErrorReporting.exitCode(for: error)
        }
    }

    /// A take named by its 1-based number or its file name.
    static func index(of name: String, in manifest: TakesManifest, directory: String) throws -> Int {
        if let number = Int(name), (1...manifest.takes.count).contains(number) { return number - 1 }
        if let index = manifest.takes.firstIndex(where: { $0.file == name || $0.file == (name as NSString).lastPathComponent }) {
            return index
        }
        throw VRenderError.input(name, "no such take in \(directory) (see 'vrender takes list \(directory)')")
    }
}
