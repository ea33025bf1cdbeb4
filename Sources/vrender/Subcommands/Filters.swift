import ArgumentParser
import VRenderFilters

extension VRender {
    /// `vrender filters`: what `--filter` accepts.
    struct Filters: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the filters --filter accepts and the backend each runs on.")

        func run() {
            let width = max(FilterRegistry.names.map(\.count).max() ?? 0, "filter".count)
            print("filter".padding(toLength: width, withPad: " ", startingAt: 0) + "  backend  description")
            for filter in FilterRegistry.all {
                let name = filter.descriptor.name.padding(toLength: width, withPad: " ", startingAt: 0)
                print("\(name)  cpu      \(filter.descriptor.summary)")
            }
        }
    }
}
