import Foundation
import Synchronization
import VRenderCore
import VRenderExport
import VRenderFilters
import VRenderMedia
import VRenderPrompter
import VRenderTakes

/// The studio's "Next": one export of the takes folder, in takes.json's order, into
/// EXPORTS/export-YYYYMMDD-HHMMSS.mp4 (H.264, so the page plays it), with the chosen filter and
/// optionally the prompter burnt in where the user left its box, captions from the prompter's
/// script (a subtitle track, and .srt and .vtt beside the file) and retakes cut. Runs on a thread of its own
/// and reports `StudioState.ExportInfo` (progress, estimate, the finished file) as it goes.
package final class StudioExport: Sendable {
    /// The prompter to burn in: the script and settings, and the box as fractions of the
    /// picture (x, y, width, height), as the page moved it.
    package struct Prompter: Sendable {
        package var script: PrompterScript
        package var settings: PrompterSettings
        package var box: [Double]

        package init(script: PrompterScript, settings: PrompterSettings, box: [Double]) {
            self.script = script
            self.settings = settings
            self.box = box
        }

        /// The script as text (`name` is what notices call it), at the given speed and size.
        package init(scriptName: String, text: String, box: [Double], speed: Double = 24, fontSize: Double = 28) {
            self.init(script: PrompterScript(name: scriptName, text: text),
                      settings: PrompterSettings(speed: speed, fontSize: fontSize), box: box)
        }
    }

    /// The file being written and the URL the page will play it from.
    package let output: String
    package let url: String
    /// The exports folder, held: the export is written into it, and served from it, whatever
    /// its path leads to by then. `name` is the export's file in it.
    package let folder: FolderHandle
    package let name: String
    /// The takes folder, held: the takes are opened through it as the export starts.
    private let takes: FolderHandle
    private let filterName: String
    private let options: ExportOptions
    private let prompter: Prompter?
    private let onUpdate: @Sendable (StudioState.ExportInfo) -> Void
    private struct Shared {
        var cancelled = false
        var exporter: Exporter?
        var last: StudioState.ExportInfo?
    }
    private let shared = Mutex(Shared())
    private let worker = StageGroup()

    /// Checks the filter and picks the file's name in the open exports folder; `start` runs it.
    /// `onUpdate` is called on the export's thread.
    package init(takes: FolderHandle, exports: FolderHandle, filter: String, prompter: Prompter? = nil,
                script: ScriptRequest? = nil, gpu: FilterBackendChoice = .auto, now: Date = Date(),
                onUpdate: @escaping @Sendable (StudioState.ExportInfo) -> Void = { _ in }) throws {
        let chain = filter.isEmpty ? FilterChain([]) : try FilterRegistry.chain(filter)
        self.takes = takes
        folder = exports
        name = Self.freeName(in: exports, now: now)
        output = exports.join(name)
        url = "/media/exports/" + name
        filterName = filter
        self.prompter = prompter
        self.onUpdate = onUpdate
        var options = ExportOptions(inputs: [], output: output, filter: chain, codec: .encode(.h264), gpu: gpu)
        options.outputFolder = exports
        options.script = script
        self.options = options
    }

    /// As `init(takes:exports:...)`, opening TAKES by its path and EXPORTS as
    /// `openExportsFolder` does (the filter is checked first: a refused export makes nothing).
    package convenience init(takesFolder: String, exportsFolder: String, filter: String, prompter: Prompter? = nil,
                            gpu: FilterBackendChoice = .auto, now: Date = Date(),
                            onUpdate: @escaping @Sendable (StudioState.ExportInfo) -> Void = { _ in }) throws {
        if !filter.isEmpty { _ = try FilterRegistry.chain(filter) }
        try self.init(takes: FolderHandle.open(takesFolder, as: .input), exports: Self.openExportsFolder(exportsFolder),
                      filter: filter, prompter: prompter, gpu: gpu, now: now, onUpdate: onUpdate)
    }

    /// EXPORTS, made when missing (its parent must exist); a link or a file there is refused.
    static func openExportsFolder(_ path: String) throws -> FolderHandle {
        let url = URL(fileURLWithPath: path)
        let parent = try FolderHandle.open(url.deletingLastPathComponent().path, as: .output)
        let name = url.lastPathComponent
        if let info = parent.status(name), info.st_mode & S_IFMT != S_IFDIR {
            let what = info.st_mode & S_IFMT == S_IFLNK ? "a symbolic link" : "not a folder"
            throw VRenderError.output(path, "is \(what): vrender writes the studio's exports into a folder of its own; move it away")
        }
        return try parent.folder(name, create: true, as: .output)
    }

    /// export-YYYYMMDD-HHMMSS.mp4 (local time), with "-2", "-3", ... when that name is taken.
    static func freeName(in folder: FolderHandle, now: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let stem = "export-" + formatter.string(from: now)
        var name = stem + ".mp4", number = 2
        while folder.status(name) != nil {
            name = "\(stem)-\(number).mp4"
            number += 1
        }
        return name
    }

    /// The prompter box in output pixels: the page's fractions of the picture times the
    /// export's canvas, on even pixels (the export fits it to the picture).
    package static func box(fractions: [Double], width: Int, height: Int) -> PixelRect? {
        guard fractions.count == 4, fractions.allSatisfy({ $0.isFinite }) else { return nil }
        func pixels(_ fraction: Double, _ size: Int) -> Int { Int((min(max(fraction, 0), 1) * Double(size) / 2).rounded()) * 2 }
        return PixelRect(x: pixels(fractions[0], width), y: pixels(fractions[1], height),
                         width: pixels(fractions[2], width), height: pixels(fractions[3], height))
    }

    /// Runs the export on a thread of its own.
    package func start() {
        worker.start("vrender-studio-export") { [self] in run() }
    }

    /// Stops the export (from any thread): its temporary file is deleted, nothing is left.
    package func cancel() {
        let exporter: Exporter? = shared.withLock {
            $0.cancelled = true
            return $0.exporter
        }
        exporter?.cancel()
    }

    /// Waits for the export to end and returns its last report (nil, at once, before `start`).
    package func wait() -> StudioState.ExportInfo? {
        worker.join()
        return shared.withLock { $0.last }
    }

    private func report(_ info: StudioState.ExportInfo) {
        shared.withLock { $0.last = info }
        onUpdate(info)
    }

    private func info(_ state: StudioState.ExportPhase, fraction: Double, eta: Double? = nil, message: String? = nil) -> StudioState.ExportInfo {
        let finished = state == .done
        return StudioState.ExportInfo(state: state, filter: filterName, fraction: fraction, etaSeconds: eta,
                                      output: finished ? output : nil, url: finished ? url : nil, message: message)
    }

    private func run() {
        let outcome = Result { try export() }
        switch outcome {
        case .success(let summary):
            report(info(.done, fraction: 1, eta: 0,
                        message: "\(summary.frames) frames, \(String(format: "%.1f", summary.duration)) s, \(summary.width)x\(summary.height) \(summary.videoCodec)"))
        case .failure(let error as VRenderError) where error.kind == .cancelled:
            report(info(.cancelled, fraction: shared.withLock { $0.last?.fraction ?? 0 }, message: "export cancelled"))
        case .failure(let error):
            report(info(.failed, fraction: shared.withLock { $0.last?.fraction ?? 0 }, message: "\(error)"))
        }
        // Its progress closure holds this export: let go of it, or neither is freed.
        shared.withLock { $0.exporter = nil }
    }

    /// Opens the takes (takes.json's, through the held folder: the file checked is the file
    /// read), plans once to learn the canvas (the prompter box is in its pixels), then exports.
    private func export() throws -> ExportSummary {
        let opened = try TakesFolder.openTakes(in: takes)
        var options = self.options
        options.inputs = opened.map(\.file.readablePath)
        options.inputTrims = opened.map(\.trim)
        options.inputNames = Dictionary(uniqueKeysWithValues: opened.map { ($0.file.readablePath, $0.file.path) })
        // Open until FFmpeg is done with them: their /proc/self/fd paths lead to them.
        return try withExtendedLifetime(opened) {
            do {
                return try export(options)
            } catch {
                throw HeldFile.naming(error, opened.map(\.file))
            }
        }
    }

    private func export(_ options: ExportOptions) throws -> ExportSummary {
        var options = options
        if let prompter {
            let canvas = try ExportPlanner.plan(options)
            options.prompter = PrompterOverlayRequest(
                script: prompter.script, settings: prompter.settings,
                box: Self.box(fractions: prompter.box, width: canvas.canvasWidth, height: canvas.canvasHeight))
        }
        let exporter = Exporter(options: options) { [self] progress in
            guard !progress.finished, progress.framesTotal > 0 else { return }
            report(info(.running, fraction: min(1, Double(progress.framesDone) / Double(progress.framesTotal)), eta: progress.eta))
        }
        let cancelled = shared.withLock {
            $0.exporter = exporter
            return $0.cancelled
        }
        if cancelled { exporter.cancel() }
        report(info(.running, fraction: 0))
        return try exporter.export()
    }
}
