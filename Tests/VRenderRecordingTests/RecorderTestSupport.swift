import Foundation
import Synchronization
import VRenderCapture
import VRenderCore
import VRenderMedia
import VRenderPrompter
@testable import VRenderRecording

/// A take writer that encodes nothing: it counts frames, so recorder tests need no encoder.
/// With a `gate`, its first write waits until the gate opens: an encoder far slower than
/// capture, without sleeping.
final class CountingWriter: TakeFileWriter {
    let fileName: String
    let thumbnailName: String? = nil
    let codecName = "counting"
    private(set) var frames = 0
    private let frameRate: Double
    private let gate: DispatchSemaphore?

    init(_ request: TakeFileRequest, gate: DispatchSemaphore? = nil) {
        fileName = "take\(request.number).test"
        frameRate = request.format.frameRate.doubleValue
        self.gate = gate
    }

    func write(_ frame: Frame, info: CapturedFrameInfo) throws {
        if frames == 0 { gate?.wait() }
        frames += 1
    }

    func finish() throws -> Double { Double(frames) / frameRate }
}

/// Every event a recorder reported, for tests to read afterwards.
final class EventLog: Sendable {
    private let events = Mutex<[RecorderEvent]>([])

    func append(_ event: RecorderEvent) { events.withLock { $0.append(event) } }

    /// Every event, in the order reported.
    var all: [RecorderEvent] { events.withLock { $0 } }

    var notices: [String] {
        events.withLock { $0.compactMap { if case .notice(let message) = $0 { message } else { nil } } }
    }

    /// Problems of the takes read back broken.
    var checkedProblems: [String] {
        events.withLock { $0.compactMap { if case .takeChecked(let take) = $0 { take.check?.problem } else { nil } } }
    }

    var chosenCodecs: [LiveCodecCalibration.Choice] {
        events.withLock { $0.compactMap { if case .codecChosen(let choice) = $0 { choice } else { nil } } }
    }

    /// Seconds behind the encoder was, per status report.
    var behind: [Double] {
        events.withLock { $0.compactMap { if case .status(let status) = $0 { status.behind } else { nil } } }
    }

    /// The prompter's views, as reported.
    var prompterViews: [PrompterView] {
        events.withLock { $0.compactMap { if case .prompter(let view) = $0 { view } else { nil } } }
    }

    /// The prompter's view reported with each take's start.
    var prompterViewsAtTakeStarts: [PrompterView] {
        let all = all
        return zip(all, all.dropFirst()).compactMap { pair in
            guard case .takeStarted = pair.0, case .prompter(let view) = pair.1 else { return nil }
            return view
        }
    }

    /// What `--audio auto` picked, as reported.
    var microphonePicks: [MicrophonePick] {
        events.withLock { $0.compactMap { if case .microphoneChosen(let pick) = $0 { pick } else { nil } } }
    }

    var openedSources: [String] {
        events.withLock { $0.compactMap { if case .sourceOpened(let name, _) = $0 { name } else { nil } } }
    }
}

/// The error `body` throws, as the user would read it (nil when it throws none, or another kind).
func vrenderError(_ body: () throws -> Any) -> VRenderError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error as? VRenderError
    }
}
