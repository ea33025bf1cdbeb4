import Foundation
import VRenderCapture

/// `VRENDER_AUDIO_TRACE=FILE`: one line per period the microphone delivers — its stamp on the
/// device's clock (CLOCK_MONOTONIC, or the synthetic scene clock), frame count and reported loss — for looking at a device's timing by hand (how far its
/// stamps wander on a busy machine, when it loses sound). Written by the audio thread alone.
final class StampTrace {
    private let file: UnsafeMutablePointer<FILE>

    /// The trace the environment asks for, or nil (unset, or the file cannot be created; a trace
    /// never stops a recording).
    static func fromEnvironment() -> StampTrace? {
        guard let path = ProcessInfo.processInfo.environment["VRENDER_AUDIO_TRACE"], !path.isEmpty,
              let file = fopen(path, "wx") else { return nil }   // "x": never over a file already there
        fputs("# stamp_seconds frames loss\n", file)
        return StampTrace(file: file)
    }

    private init(file: UnsafeMutablePointer<FILE>) { self.file = file }

    deinit { fclose(file) }

    func record(_ period: AudioPeriod) {
        let loss = switch period.loss {
        case nil: "-"
        case .restart: "restart"
        case .frames(let count): "\(count)"
        }
        fputs("\(String(format: "%.6f", period.time)) \(period.frames) \(loss)\n", file)
    }
}
