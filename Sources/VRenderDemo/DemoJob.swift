import Foundation
import VRenderCapture
import VRenderCore
import VRenderExport
import VRenderFilters
import VRenderMedia
import VRenderPrompter
import VRenderRecording
import VRenderTakes

/// `vrender demo`: the whole job with no camera. Records three takes from the synthetic camera
/// (opened through `CaptureDevices`, as `vrender capture --device synthetic:seed=1` would),
/// driven by `script` with the prompter scrolling `prompterScript`, into `DIR/takes/`, then
/// exports them with the mono filter to `DIR/export.mov`, and again with the prompter burned in
/// to `DIR/export-prompter.mov`. The demo owns both: reruns replace them and give the same result.
package struct DemoJob: Sendable {
    /// The camera: the synthetic one, seed 1, so every run records the same frames.
    package static let device = "synthetic:seed=1"
    package static let takes = 3
    package static let filter = "mono"

    /// The demo's script: every feature of the synthetic camera in three seconds.
    package static let script = """
        # vrender demo: lens jumps, a zoom ramp and the torch
        at 0s lens 0.5
        at 0s torch off
        at 0.75s lens 1
        at 1.5s lens 2
        at 1.6s zoom 4 ramp 2
        at 2.2s torch on
        at 3s stop
        """

    /// The demo's prompter script, as the seed's users write: Portuguese, accents and all.
    package static let prompterScript = """
        Olá! Este é o teleprompter do vrender.
        O roteiro rola enquanto o take grava, para quando a gravação para e continua do mesmo \
        ponto no take seguinte.
        Atenção à iluminação, à posição da câmera e ao ritmo da fala: leia com calma, sem pressa.
        No fim, a exportação mostra exatamente o que você viu.
        """
    /// Its speed and size: quick enough to cover the script in the demo's nine seconds.
    package static let prompterSettings = PrompterSettings(speed: 24, fontSize: 24, ending: .pause)

    package var directory: String
    package var size: (width: Int, height: Int)
    package var gpu: FilterBackendChoice
    /// Let FFmpeg's own warnings through to standard error.
    package var verbose: Bool

    package init(directory: String, size: (width: Int, height: Int), gpu: FilterBackendChoice = .auto, verbose: Bool = false) {
        self.directory = directory
        self.size = size
        self.gpu = gpu
        self.verbose = verbose
    }

    package var takesDirectory: String { directory + "/takes" }
    package var outputPath: String { directory + "/export.mov" }
    /// The same export with the prompter burned in.
    package var prompterOutputPath: String { directory + "/export-prompter.mov" }

    /// Records, then exports. `recording` sees the capture's events (finished takes, notices);
    /// `progress` the export's. Returns the export's summary.
    package func run(recording: @escaping @Sendable (RecorderEvent) -> Void = { _ in },
                    progress: @escaping @Sendable (ExportProgress) -> Void = { _ in }) throws -> ExportSummary {
        FFmpegLog.configure(verbose: verbose)
        TakesFolder.removeAllTakes(in: takesDirectory)
        var plan = RecordingPlan(outputDirectory: takesDirectory, takes: Self.takes,
                                 script: try ActionScript(text: Self.script, source: "demo script"))
        let prompter = PrompterScript(name: "demo prompter script", text: Self.prompterScript)
        // The synthetic microphone reads the prompter's script aloud as it scrolls: the demo's
        // video has speech, its clapper in sync with the camera's flash.
        try plan.setPrompter(prompter, settings: Self.prompterSettings, voice: "en")
        let capture = CaptureOptions(device: Self.device, request: CaptureRequest(size: size), plan: plan, verbose: verbose,
                                     audio: "synthetic")
        _ = try CaptureJob(options: capture).run(events: recording)

        let options = ExportOptions(inputs: [takesDirectory], output: outputPath,
                                    filter: try FilterRegistry.chain(Self.filter), overwrite: true, gpu: gpu,
                                    verbose: verbose)
        let summary = try Exporter(options: options, progress: progress).export()
        var prompted = options
        prompted.output = prompterOutputPath
        // The takes recorded the prompter's scroll: the overlay replays it.
        prompted.prompter = PrompterOverlayRequest(script: prompter, settings: Self.prompterSettings)
        _ = try Exporter(options: prompted, progress: progress).export()
        return summary
    }
}
