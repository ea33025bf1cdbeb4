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

        @Option(help: ArgumentHelp("Time of the frame to preview, e.g. 1.0s.", valueName: "time"))
        var at = "1.0s"

        @OptionGroup var backend: GPUOptions

        private var badTime: ValidationError { ValidationError("--at '\(at)' is not a time (e.g. 1.0s)") }

        func validate() throws {
            if ValueSyntax.seconds(at) == nil { throw badTime }
        }

        func run() throws {
            if let preview {
                try writePreview(of: preview)
                return
            }
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
            guard let requested = ValueSyntax.seconds(at) else { throw badTime }
            let written = try FilterPreview.write(input: input, atSeconds: requested, filters: FilterRegistry.all,
                                                  backend: backend.gpu, to: output)
            let shown = String(format: "%.2f s", written.shownSeconds)
            if written.shownSeconds < requested - 0.05 {
                Warnings.print("--at \(at) is past the end of \(input): showing its last frame, at \(shown)")
            }
            print("\(output): \(FilterRegistry.all.count) filters on \(input) at \(shown), \(written.width)x\(written.height) (\(written.backend))")
        }
    }
}
