import ArgumentParser
import Foundation
import VRenderCore
import VRenderExport
import VRenderFilters

extension VRender {
    /// `vrender filters`: what `--filter` accepts, and a preview of every filter on one frame.
    struct Filters: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the filters --filter accepts and the backend each runs on, or preview them all on a frame.",
            discussion: """
                Filters chain with commas and take options after '=': --filter "fade,mono", \
                --filter "sepia=strength=60". --preview runs one frame of INPUT through every \
                filter and writes a labelled grid, to choose a filter by eye.
                """)

        @Option(help: ArgumentHelp("A video to preview every filter on.", valueName: "input"))
        var preview: String?

        @Option(name: [.short, .customLong("output")], help: "PNG file for --preview.")
        var output = "filters.png"

        @Option(help: ArgumentHelp("Time of the frame to preview, e.g. 1.0s (default 1s).", valueName: "time"), transform: TimeArgument.parse)
        var at = TimeArgument(seconds: 1)

        @OptionGroup var backend: GPUOptions

        func run() throws {
            if let preview { return try writePreview(of: preview) }
            let auto = FilterExecutors.describe(.auto)
            let rows = FilterRegistry.all.map { filter in
                [filter.descriptor.name,
                 filter.descriptor.options.map { "\($0.name) \($0.range.lowerBound)-\($0.range.upperBound)" }.joined(separator: ", "),
                 filter.descriptor.summary]
            }
            let table = TextTable(columns: [.init(title: "filter"), .init(title: "options"), .init(title: "description", fit: .shorten(minimum: 20))],
                                  rows: rows)
            table.lines(width: TextTable.standardOutputWidth).forEach { print($0) }
            print("backend: --gpu auto runs them on \(auto); --gpu vulkan on \(FilterExecutors.describe(.vulkan)); --gpu cpu on the CPU")
        }

        private func writePreview(of input: String) throws {
            let written = try FilterPreview.write(input: input, atSeconds: at.seconds, backend: backend.gpu, to: output)
            let shown = String(format: "%.2f s", written.shownSeconds)
            if written.isPastEnd { Warnings.print("--at \(at.text) is past the end of \(input): showing its last frame, at \(shown)") }
            print("\(output): \(written.filters) filters on \(input) at \(shown), \(written.width)x\(written.height) (\(written.backend))")
        }
    }
}
