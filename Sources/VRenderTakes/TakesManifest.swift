import Foundation
import VRenderCore
import VRenderMedia
import VRenderPrompter

/// One recorded take, as `takes.json` lists it.
public struct TakeEntry: Sendable, Codable, Equatable {
    /// A change of the camera during the take (lens, zoom, torch, position), at a time in it.
    public struct TimelineEvent: Sendable, Codable, Equatable {
        public var time: Double
        public var position: CameraPosition
        public var lens: Double
        public var zoom: Double
        public var torch: Double
        /// What caused it ("script demo.actions:3: zoom 2 ramp 4", "key t", "start").
        public var cause: String

        // Spelled out: the memberwise one is internal, and the capture (VRenderRecording) makes these.
        package init(time: Double, position: CameraPosition, lens: Double, zoom: Double, torch: Double, cause: String) {
            self.time = time
            self.position = position
            self.lens = lens
            self.zoom = zoom
            self.torch = torch
            self.cause = cause
        }
    }

    /// File name of the take, relative to the folder (`segment_0001_<UUID>.mov`; takes recorded
    /// before numbering: `segment_<UUID>.mov`).
    public var file: String
    /// File name of its thumbnail (`segment_0001_<UUID>.png`), the frame at 0.05 s.
    public var thumbnail: String?
    /// ISO 8601 time the take started.
    public var created: String
    public var frames: Int
    public var dropped: Int
    public var duration: Double
    public var fps: String
    public var width: Int
    public var height: Int
    public var codec: String
    public var device: String
    /// Seconds of pre-roll the take starts with.
    public var preroll: Double
    public var timeline: [TimelineEvent]
    /// Capture-to-file latency: from a frame entering the ring until the encoder has taken it
    /// and written whatever packets it produced (frames an encoder holds back for its own
    /// look-ahead or frame threads leave the file later than this).
    public var latency: LatencySummary?
    /// What reading the take back found when it ended (or was recovered); nil in takes
    /// recorded before vrender verified them.
    public var check: TakeCheck?
    /// The prompter's scroll during the take (`--prompter`): where it started and ended and
    /// every change, for an export to show what the presenter saw. Absent without a prompter,
    /// and in takes recorded before vrender had one.
    public var prompter: PrompterTakeRecord?
    /// What the synthetic presenter said (the synthetic microphone reading the prompter's
    /// script): every word's true time, the ground truth captions are measured against. Absent
    /// for any other microphone.
    public var presenter: PresenterTakeRecord? = nil
    /// The take's sound (`--audio`): absent for a silent take, and in takes recorded before
    /// vrender recorded sound.
    public var audio: TakeSound? = nil
    /// In and out points an export applies (`vrender takes trim`); absent: the whole take.
    public var trim: TakeTrim? = nil

    // Spelled out: the memberwise one is internal, and the capture (VRenderRecording) makes these.
    package init(file: String, thumbnail: String? = nil, created: String, frames: Int, dropped: Int, duration: Double,
                 fps: String, width: Int, height: Int, codec: String, device: String, preroll: Double,
                 timeline: [TimelineEvent], latency: LatencySummary? = nil, check: TakeCheck? = nil,
                 prompter: PrompterTakeRecord? = nil, presenter: PresenterTakeRecord? = nil, audio: TakeSound? = nil,
                 trim: TakeTrim? = nil) {
        self.file = file
        self.thumbnail = thumbnail
        self.created = created
        self.frames = frames
        self.dropped = dropped
        self.duration = duration
        self.fps = fps
        self.width = width
        self.height = height
        self.codec = codec
        self.device = device
        self.preroll = preroll
        self.timeline = timeline
        self.latency = latency
        self.check = check
        self.prompter = prompter
        self.presenter = presenter
        self.audio = audio
        self.trim = trim
    }
}

/// A take's sound as takes.json lists it.
public struct TakeSound: Sendable, Codable, Equatable {
    /// The microphone ("pulse:default", "alsa:hw:1,0", "synthetic seed=1").
    public var device: String
    /// The take's sample rate and channel count (the device's rate where AAC has it, else 48 kHz;
    /// mono or stereo).
    public var rate: Int
    public var channels: Int
    /// The loudest sample of the take, dBFS (0 is full scale; absent for pure silence).
    public var peak: Double?
    /// Milliseconds of the take with no sound from the device (it lost periods, started late or
    /// went away), filled with silence of exactly that length.
    public var missingMilliseconds: Double
    /// How fast the device's sample clock ran against the camera's, parts per million, as
    /// measured by the end of the take (absorbed by resampling).
    public var driftPPM: Double

    public init(device: String, rate: Int, channels: Int, peak: Double?, missingMilliseconds: Double, driftPPM: Double) {
        self.device = device
        self.rate = rate
        self.channels = channels
        self.peak = peak
        self.missingMilliseconds = missingMilliseconds
        self.driftPPM = driftPPM
    }
}

/// A take read back from disk after it was written: how many frames decode and how long it
/// plays. `problem` says why a take is not good (nil: good).
public struct TakeCheck: Sendable, Codable, Equatable {
    /// Frames that decoded without an error.
    public var decodableFrames: Int
    /// Packets or frames the decoder reported damaged.
    public var damagedFrames: Int
    /// Seconds of video, from the first decodable frame to the end of the last.
    public var duration: Double
    /// Why the take is not good ("no decodable frames", "12 of 150 frames do not decode", …).
    public var problem: String?
    /// Seconds of sound decoded, from the first sample to the end of the last (absent: no sound).
    public var audioDuration: Double?

    public init(decodableFrames: Int, damagedFrames: Int, duration: Double, problem: String?, audioDuration: Double? = nil) {
        self.decodableFrames = decodableFrames
        self.damagedFrames = damagedFrames
        self.duration = duration
        self.problem = problem
        self.audioDuration = audioDuration
    }

    public var isGood: Bool { problem == nil }
}

/// Percentiles of a latency distribution, in milliseconds.
public struct LatencySummary: Sendable, Codable, Equatable {
    public var p50: Double
    public var p99: Double
    public var max: Double

    /// Summarizes samples in nanoseconds; nil when there are none.
    public init?(nanoseconds samples: [UInt64]) {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        func percentile(_ p: Double) -> Double {
            Double(sorted[Swift.min(sorted.count - 1, Int((p * Double(sorted.count - 1)).rounded()))]) / 1e6
        }
        p50 = percentile(0.5)
        p99 = percentile(0.99)
        max = Double(sorted[sorted.count - 1]) / 1e6
    }
}

/// `takes.json`: every take in a folder, in recording order. Rewritten atomically (`AtomicFile`)
/// after each take, so a crash never leaves it half-written.
public struct TakesManifest: Sendable, Codable, Equatable {
    public var takes: [TakeEntry]

    public init(takes: [TakeEntry] = []) {
        self.takes = takes
    }

    public static let fileName = "takes.json"

    /// Reads `DIR/takes.json`; an absent file, or folder, is an empty manifest (a capture's new
    /// folder). Readers of an existing folder use `TakesFolder.manifest(in:)`, which requires it.
    public static func load(from directory: String) throws -> TakesManifest {
        guard FileNames.status(directory) != nil else { return TakesManifest() }
        return try load(in: FolderHandle.open(directory))
    }

    /// Reads `takes.json` in `folder` (absent: an empty manifest), through the folder's
    /// descriptor. Every entry is checked as it loads (`TakesManifest+Validation.swift`). A
    /// damaged file (truncated, not JSON, a field out of range) is an error that points to
    /// `vrender takes recover`, which every takes command and capture read it through.
    public static func load(in folder: FolderHandle) throws -> TakesManifest {
        let path = folder.join(fileName)
        guard let data = try readBytes(in: folder) else { return TakesManifest() }
        let manifest: TakesManifest
        do {
            manifest = try TakesManifest(json: data)
        } catch {
            throw VRenderError.input(path, "is not a valid takes manifest: " + recoverHint(folder.path)
                                     + " (\(FieldCheck.reason(error)))")
        }
        try manifest.requireNamesInside(path: path)
        do {
            try manifest.requireValidEntries(path: path)
        } catch let error as VRenderError {
            throw VRenderError.input(path, error.reason + "; " + recoverHint(folder.path))
        }
        return manifest
    }

    static func recoverHint(_ directory: String) -> String {
        "'vrender takes recover \(directory)' rebuilds it from the take files, keeping this one aside"
    }

    /// The bytes of `takes.json` in `folder`, nil when there is none. Refused: a symbolic link
    /// (vrender writes a file there, never a link), anything but a regular file, and a file over
    /// `maxFileBytes`, which is never read.
    static func readBytes(in folder: FolderHandle) throws -> Data? {
        guard folder.status(fileName) != nil else { return nil }
        return try folder.readFile(fileName, limit: maxFileBytes)
    }

    /// Decodes `takes.json`'s bytes.
    public init(json data: Data) throws {
        self = try JSONDecoder().decode(TakesManifest.self, from: data)
    }

    public func save(to directory: String) throws {
        try save(in: FolderHandle.open(directory, as: .output))
    }

    /// Replaces `takes.json` in `folder` atomically, through the folder's descriptor.
    public func save(in folder: FolderHandle) throws {
        try AtomicFile.writeJSON(self, in: folder, name: Self.fileName)
    }
}
