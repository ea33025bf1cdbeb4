import Foundation
import VRenderExport

/// Renders export progress on standard error: a redrawn bar for people, `key=value` blocks
/// for programs (the keys ffmpeg's `-progress` uses, plus `total_frames` and `eta`).
final class ProgressPrinter: @unchecked Sendable {
    private let style: ProgressStyle
    private var drewBar = false

    init(style: ProgressStyle) {
        self.style = style
    }

    /// Called from one pipeline thread at a time (the throttle serializes calls).
    func report(_ progress: ExportProgress) {
        switch style {
        case .bar: drawBar(progress)
        case .plain: writePlain(progress)
        case .none, .auto: break
        }
    }

    /// Ends the bar's line so later output starts on a fresh line.
    func finish() {
        if drewBar { write("\n") }
    }

    private func drawBar(_ progress: ExportProgress) {
        let width = 30
        let fraction = progress.framesTotal > 0 ? Swift.min(1, Double(progress.framesDone) / Double(progress.framesTotal)) : 0
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let eta = progress.eta.map { Self.clock($0) } ?? "--:--"
        let line = String(format: "\r[%@] %3d%%  %d/%d frames  %.1f fps  %.2fx  ETA %@ ",
                          bar, Int(fraction * 100), progress.framesDone, progress.framesTotal, progress.fps, progress.speed, eta)
        write(line)
        drewBar = true
    }

    private func writePlain(_ progress: ExportProgress) {
        var lines = "frame=\(progress.framesDone)\n"
        lines += "total_frames=\(progress.framesTotal)\n"
        lines += String(format: "fps=%.2f\n", progress.fps)
        lines += "out_time=\(Self.timestamp(progress.outputSeconds))\n"
        lines += String(format: "speed=%.3fx\n", progress.speed)
        lines += "eta=\(progress.eta.map { String(format: "%.1f", $0) } ?? "N/A")\n"
        lines += "progress=\(progress.finished ? "end" : "continue")\n"
        write(lines)
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        return String(format: "%d:%02d", total / 60, total % 60)
    }

    static func timestamp(_ seconds: Double) -> String {
        let whole = Int(seconds)
        return String(format: "%02d:%02d:%02d.%06d", whole / 3600, whole / 60 % 60, whole % 60,
                      Int(((seconds - Double(whole)) * 1e6).rounded()))
    }
}
