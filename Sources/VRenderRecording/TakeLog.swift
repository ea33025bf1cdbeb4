import Foundation
import Synchronization
import VRenderCapture
import VRenderCore
import VRenderPrompter
import VRenderTakes

/// Per-take facts the capture thread learns (start time, camera timeline) and the writer
/// thread needs to write the manifest entry.
final class TakeLog: Sendable {
    struct Record: Sendable {
        var created: Date
        var preroll: Double
        var timeline: [TakeEntry.TimelineEvent]
        /// The prompter's scroll during the take, set when it stopped recording.
        var prompter: PrompterTakeRecord?
        /// What the synthetic presenter said in the take, set when it stopped recording.
        var presenter: PresenterTakeRecord?
    }

    // Inferred, not spelled `Mutex<…>`: the ThreadSanitizer build's stand-in (VRenderCore/TSanMutex.swift).
    private let records = Mutex([Int: Record]())

    /// Take `take` began with the camera in `state`, with `preroll` seconds before its trigger.
    func begin(take: Int, state: CameraState, preroll: Double) {
        let record = Record(created: Date(), preroll: preroll, timeline: [Self.event(state, at: 0, cause: "start")])
        records.withLock { $0[take] = record }
    }

    /// The camera changed to `state` at `time` into take `take`, because of `cause`.
    func record(take: Int, state: CameraState, at time: Double, cause: String) {
        let event = Self.event(state, at: time, cause: cause)
        records.withLock { $0[take]?.timeline.append(event) }
    }

    /// What the prompter did during take `take`: set before the take's end reaches the writer.
    func record(take: Int, prompter: PrompterTakeRecord) {
        records.withLock { $0[take]?.prompter = prompter }
    }

    /// What the synthetic presenter said during take `take`: set with the prompter's record.
    func record(take: Int, presenter: PresenterTakeRecord) {
        records.withLock { $0[take]?.presenter = presenter }
    }

    func record(for take: Int) -> Record? { records.withLock { $0[take] } }

    private static func event(_ state: CameraState, at time: Double, cause: String) -> TakeEntry.TimelineEvent {
        TakeEntry.TimelineEvent(time: time, position: state.position, lens: state.lens, zoom: state.zoom,
                                torch: state.torch, cause: cause)
    }
}
