import ArgumentParser
import Foundation
import VRenderTakes
import VRenderWorkerCommands

extension VRender.Takes {
    /// `vrender takes order DIR 3 1 2`: `TakesFolder.order`, then the new order.
    struct Order: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Put the takes in a new order (the order 'vrender concat DIR' joins them in).",
            discussion: """
                Name every take once, by its number as 'takes list' shows it or by its file name: \
                'vrender takes order takes 3 1 2' makes take 3 the first. takes.json is changed; \
                the files are not (a shell glob such as takes/*.mov still lists them in recording order).
                """)

        @Argument(help: ArgumentHelp("Folder with takes.json.", valueName: "dir"))
        var directory: String

        @Argument(help: ArgumentHelp("Every take, in the new order.", valueName: "take"))
        var takes: [String] = []

        func validate() throws {
            if takes.isEmpty { throw ValidationError("name the takes in their new order (e.g. 'takes order DIR 3 1 2')") }
        }

        func run() throws {
            OrderPrinter.print(try TakesFolder.order(takes, in: directory))
        }
    }

    /// `vrender takes mv DIR TAKE POSITION`: `TakesFolder.move`, then the new order.
    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mv", abstract: "Move one take to another place in the order.",
            discussion: """
                'vrender takes mv takes 3 1' makes take 3 the first; the others keep their order. \
                A position past the last take puts it last.
                """)

        @Argument(help: ArgumentHelp("Folder with takes.json.", valueName: "dir"))
        var directory: String

        @Argument(help: ArgumentHelp("The take: its number as 'takes list' shows it, or its file name.", valueName: "take"))
        var take: String

        @Argument(help: ArgumentHelp("Its new place, from 1 (the first).", valueName: "position"))
        var position: Int

        func validate() throws {
            if position < 1 { throw ValidationError("the position counts from 1 (the first take); \(position) is before it") }
        }

        func run() throws {
            OrderPrinter.print(try TakesFolder.move(take, to: position, in: directory))
        }
    }
}

/// The takes in their new order, a line each: "1. segment_0003_….mov (2.40 s)".
private enum OrderPrinter {
    static func print(_ takes: [TakeEntry]) {
        for (number, take) in takes.enumerated() {
            Swift.print("\(number + 1). \(take.file) (\(String(format: "%.2f", take.duration)) s)")
        }
    }
}
