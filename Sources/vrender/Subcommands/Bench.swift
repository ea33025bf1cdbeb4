import ArgumentParser

extension VRender {
    /// `vrender bench`: per-stage frame timings (placeholder until issue 9 lands).
    struct Bench: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Measure per-stage frame timings of an export, a capture or a filter.")
    }
}
