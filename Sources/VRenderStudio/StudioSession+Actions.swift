import Foundation
import VRenderCapture
import VRenderCore
import VRenderExport
import VRenderFilters
import VRenderPrompter
import VRenderRecording
import VRenderTakes

extension StudioSession {
    /// A page's action, with the library calls `vrender capture`, `takes rm` and `concat`
    /// make. Throws `StudioActionError` naming what was refused and why. Record and the camera
    /// go through `activity`; what touches the takes folder runs on `folderQueue`.
    package func perform(_ action: StudioAction) async throws {
        switch action {
        case .record(let on): try await activity.record(on)
        case .lens(let factor):
            guard [0.5, 1, 2].contains(factor) else { throw StudioActionError(status: 400, "lens \(factor): the lenses are 0.5, 1 and 2") }
            try await camera(.lens(factor), cause: "studio lens \(ValueSyntax.text(factor))")
        case .zoom(let factor):
            guard factor.isFinite, factor > 0 else { throw StudioActionError(status: 400, "zoom \(factor) is not a positive factor") }
            try await camera(.rampZoom(to: factor, rate: 2), cause: "studio zoom \(ValueSyntax.text(factor))")
        case .torch(let on):
            try await camera(.torch(level: on ? 1 : 0), cause: on ? "studio torch on" : "studio torch off")
        case .flip:
            try await camera(.flip, cause: "studio flip")
        case .exposurePoint(let x, let y):
            guard (0...1).contains(x), (0...1).contains(y) else {
                throw StudioActionError(status: 400, "exposure point \(x), \(y) is outside the picture (0...1)")
            }
            try await camera(.pointOfInterest(x: x, y: y), cause: "studio exposure point")
        case .previewFilter(let name):
            let chain = try filterChain(name)
            preview.setFilter(chain)
            update { $0.previewFilter = name }
        case .prompter(let command):
            guard options.prompter != nil else { throw StudioActionError(status: 409, "there is no prompter (start the studio with --prompter FILE)") }
            try await activity.send(.prompter(Self.prompterCommand(command), cause: "studio \(command.rawValue)"))
        case .prompterBox(let box):
            try setPrompterBox(box)
        case .deleteTake(let file):
            try await onFolderQueue { [self] in try deleteTake(file) }
        case .reorderTakes(let files):
            try await onFolderQueue { [self] in try reorder(files) }
        case .export(let filter, let burnPrompter, let captions, let cutRetakes):
            try await export(filter: filter, burnPrompter: burnPrompter, script: scriptUse(captions: captions, cutRetakes: cutRetakes))
        case .cancelExport:
            control.withLock { $0.export }?.cancel()
        }
    }

    private func camera(_ control: CameraControl, cause: String) async throws {
        try await activity.send(.control(control, cause: cause))
    }

    private func reorder(_ files: [String]) throws {
        do {
            try TakesFolder.reorder(files, in: options.folder)
        } catch {
            throw StudioActionError(status: 409, "\(error)")
        }
        refreshTakes()
    }

    private func filterChain(_ name: String) throws -> FilterChain {
        guard !name.isEmpty else { return FilterChain([]) }
        do {
            return try FilterRegistry.chain(name)
        } catch {
            throw StudioActionError(status: 400, "\(error)")
        }
    }

    static func prompterCommand(_ action: StudioAction.PrompterAction) -> PrompterCommand {
        switch action {
        case .hold: .toggleHold
        case .faster: .faster
        case .slower: .slower
        case .larger: .larger
        case .smaller: .smaller
        case .restart: .restart
        }
    }

    /// Keeps the box inside the picture; too small a box is grown by the export's fitting
    /// (`PrompterGeometry.fitted`), which also says so.
    private func setPrompterBox(_ box: [Double]) throws {
        guard options.prompter != nil else { throw StudioActionError(status: 409, "there is no prompter (start the studio with --prompter FILE)") }
        guard box.count == 4, box.allSatisfy(\.isFinite), box[2] > 0, box[3] > 0 else {
            throw StudioActionError(status: 400, "box must be [x, y, width, height], fractions of the picture")
        }
        let width = Swift.min(box[2], 1), height = Swift.min(box[3], 1)
        let fitted = [Swift.min(Swift.max(box[0], 0), 1 - width), Swift.min(Swift.max(box[1], 0), 1 - height), width, height]
        control.withLock { $0.prompterBox = fitted }
        showPrompter()
    }

    private func deleteTake(_ file: String) throws {
        guard snapshot.withLock({ $0.takes.contains { $0.file == file } }) else {
            throw StudioActionError(status: 404, "\(file): no such take in \(options.folder)")
        }
        do {
            // A request must answer: another process holding the folder's lock makes it a 409
            // (busy, naming the holder) within `briefWait`, never a request that hangs; the
            // studio's own capture saving a take's listing or check is waited for.
            try TakesFolder.remove([file], from: options.folder, wait: .request, for: "vrender studio")
        } catch {
            throw StudioActionError(status: 409, "\(error)")
        }
        proxies?.forget(file: file)
        notify("deleted \(file)")
        refreshTakes()
    }

    /// Claims the studio for an export (refused while a take records or is on its way, or
    /// another export runs), then starts it; a start that fails gives the claim back.
    private func export(filter: String, burnPrompter: Bool, script: ScriptRequest?) async throws {
        try await activity.claimExport()
        do {
            try await onFolderQueue { [self] in try startExport(filter: filter, burnPrompter: burnPrompter, script: script) }
        } catch {
            await activity.endExport()
            throw error
        }
    }

    /// What the export does with the prompter's script: captions (a subtitle track, and .srt and
    /// .vtt beside the export), retakes cut. Refused without a script to align.
    private func scriptUse(captions: Bool, cutRetakes: Bool) throws -> ScriptRequest? {
        guard captions || cutRetakes else { return nil }
        guard let prompter = options.prompter else {
            throw StudioActionError(status: 409, "captions and cutting retakes need the script the takes were read from: "
                                    + "start the studio with --prompter SCRIPT")
        }
        return ScriptRequest(captions: captions ? [.track, .srt, .vtt] : [], cutRetakes: cutRetakes, script: prompter.script)
    }

    private func startExport(filter: String, burnPrompter: Bool, script: ScriptRequest?) throws {
        guard !snapshot.withLock({ $0.takes.isEmpty }) else { throw StudioActionError(status: 409, "there are no takes to export yet") }
        _ = try filterChain(filter)   // named in the error as the page sent it
        var overlay: StudioExport.Prompter?
        if burnPrompter, let prompter = options.prompter {
            overlay = StudioExport.Prompter(script: prompter.script, settings: prompter.settings,
                                            box: control.withLock { $0.prompterBox })
        }
        let export: StudioExport
        do {
            guard let takes = heldTakesFolder() else { throw VRenderError.input(options.folder, "no such folder") }
            let exports = try heldExportsFolder()
            export = try StudioExport(takes: takes, exports: exports, filter: filter, prompter: overlay,
                                      script: script) { [weak self] info in self?.exportChanged(info, in: exports) }
        } catch {
            throw StudioActionError(status: 409, "\(error)")
        }
        control.withLock { $0.export = export }
        update { $0.export = StudioState.ExportInfo(state: .running, filter: filter, fraction: 0, etaSeconds: nil,
                                                    output: nil, url: nil, message: nil) }
        gateProxies()
        terminal("export: \(export.output)", false)
        // Started under the lock `stop` marks the studio stopping with: an export it will wait
        // for runs, one that would start after it never does.
        control.withLock { if !$0.stopping { export.start() } }
    }

    /// An export's report, on its thread: into the snapshot, and the finished file (in the
    /// held `folder` it was written in) into what `/media/exports/` may serve.
    private func exportChanged(_ info: StudioState.ExportInfo, in folder: FolderHandle) {
        if info.state == .done, let output = info.output {
            control.withLock { $0.exported[(output as NSString).lastPathComponent] = folder }
        }
        guard info.state != .running else {
            update { $0.export = info }
            return
        }
        // The studio is free again when the pages see the end, not a moment later (a record
        // pressed on seeing it would be refused), and no new export's "running" can come
        // between the two and be overwritten by this end: one step of `activity`.
        Task { [self] in
            await activity.endExport { [self] in update { $0.export = info } }
            gateProxies()
            switch info.state {
            case .done: notify("export finished: \(info.output ?? "") (\(info.message ?? ""))")
            case .failed: notify("export failed: \(info.message ?? "")", isError: true)
            default: notify(info.message ?? "export \(info.state.rawValue)")
            }
        }
    }
}
