import ArgumentParser

extension VRender {
    /// `vrender golden`: record and check golden frames (placeholder until issue 9 lands).
    struct Golden: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Record and check golden frames of a video.")
    }
}
