// TEMPORARY (lead): stand-ins for wt-media's types until its branch is merged. Deleted at merge.
import VRenderFilters
import VRenderMedia
import VRenderPrompter
import VRenderRecording
final class PreviewEncoder: LivePreview, @unchecked Sendable {
    init(maxWidth: Int, deliver: @escaping @Sendable (PreviewFrame) -> Void) {}
    func offer(_ frame: Frame, time: Double, monotonic: Double?, sequence: Int) {}
    func setFilter(_ chain: FilterChain) {}
    func stop() {}
}
final class ProxyMaker: @unchecked Sendable {
    var onChange: (@Sendable () -> Void)?
    init(takesFolder: String) {}
    func enqueue(file: String) {}
    func pause() {}
    func resume() {}
    func forget(file: String) {}
    func stop() {}
    func state(of file: String) -> (state: String, name: String?) { ("waiting", nil) }
    func path(ofProxyNamed name: String) -> String? { nil }
}
final class StudioExport: @unchecked Sendable {
    init(takesFolder: String, exportsFolder: String) {}
    var isRunning: Bool { false }
    func start(filter: FilterChain, filterName: String, prompter: (script: PrompterScript, settings: PrompterSettings, box: [Double])?,
               report: @escaping @Sendable (StudioState.ExportInfo) -> Void) throws {}
    func cancel() {}
    func path(ofExportNamed name: String) -> String? { nil }
}
enum FilterGrid { static func png(takePath: String) throws -> [UInt8] { [] } }
