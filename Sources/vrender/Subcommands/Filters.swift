import ArgumentParser
import Foundation
import VRenderCore
import VRenderImaging
import VRenderExport
import VRenderFilters
import VRenderMedia

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

        func validate() throws {
            if ValueSyntax.seconds(at) == nil { throw ValidationError("--at '\(at)' is not a time (e.g. 1.0s)") }
        }

        func run() throws {
            FFmpegLog.configure(verbose: false)
            if let preview {
                do {
                    let requested = ValueSyntax.seconds(at) ?? 1
                    let result = try FilterPreview.render(input: preview, atSeconds: requested,
                                                          filters: FilterRegistry.all, backend: backend.gpu)
                    try PNGWriter.write(result.image, to: output)
                    let shown = String(format: "%.2f s", result.shownSeconds)
                    if result.shownSeconds < requested - 0.05 {
                        ErrorReporting.printWarning("--at \(at) is past the end of \(preview): showing its last frame, at \(shown)")
                    }
                    print("\(output): \(FilterRegistry.all.count) filters on \(preview) at \(shown), \(result.image.width)x\(result.image.height) (\(result.backend))")
                } catch {
                    throw ErrorReporting.exitCode(for: error)
                }
                return
            }
            let auto = FilterExecutors.describe(.auto)
            let width = max(FilterRegistry.names.map(\.count).max() ?? 0, "filter".count)
            func pad(_ text: String) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
            print(pad("filter") + "  options           description")
            for filter in FilterRegistry.all {
                let options = filter.descriptor.options.map { "\($0.name) \($0.range.lowerBound)-\($0.range.upperBound)" }
                    .joined(separator: ", ")
                print(pad(filter.descriptor.name) + "  " + options.padding(toLength: 16, withPad: " ", startingAt: 0)
                      + "  " + filter.descriptor.summary)
            }
            print("backend: --gpu auto runs them on \(auto); --gpu vulkan on \(FilterExecutors.describe(.vulkan)); --gpu cpu on the CPU")
        }
    }
}
