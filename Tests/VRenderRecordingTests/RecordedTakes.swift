import Foundation
import VRenderCapture
import VRenderCore
import VRenderMedia
import VRenderTestSupport
@testable import VRenderRecording
@testable import VRenderTakes

/// Takes recorded once per test run through the real capture path (CaptureJob → Recorder →
/// SegmentWriter, synthetic camera in batch mode), for recovery tests to copy and cut as a kill
/// would. Three 2-second takes at 30 fps: several fragments each, whatever their length.
struct RecordedTakes: Sendable {
    let directory: String
    let manifest: TakesManifest

    static let h264 = record(.h264)
    static let hevc = record(.hevc)

    static func of(_ codec: VideoCodecChoice) -> RecordedTakes { codec == .hevc ? hevc : h264 }

    /// The device name a take's `comment` tag carries.
    static let device = "synthetic seed=9"

    private static func record(_ codec: VideoCodecChoice) -> RecordedTakes {
        let directory = TestMedia.scratchDirectory()
        let options = CaptureOptions(device: "synthetic:seed=9", request: CaptureRequest(size: (96, 64)),
                                     plan: RecordingPlan(outputDirectory: directory, takes: 3, duration: 2, codec: codec))
        do {
            _ = try CaptureJob(options: options).run()
            return RecordedTakes(directory: directory, manifest: try TakesManifest.load(from: directory))
        } catch {
            fatalError("recording the test takes failed: \(error)")
        }
    }

    /// Take `number` (1-based): its entry, and the bytes of its video.
    func entry(_ number: Int) -> TakeEntry { manifest.takes[number - 1] }

    func video(_ number: Int) -> Data {
        FileManager.default.contents(atPath: directory + "/" + entry(number).file) ?? Data()
    }

    /// Copies take `number` into `folder`: its video (the first `cut` bytes only, when given:
    /// a capture killed there) and, unless cut, its thumbnail. Returns the video's path.
    @discardableResult
    func copy(_ number: Int, into folder: String, cut: Int? = nil) -> String {
        let take = entry(number), path = folder + "/" + take.file
        let bytes = video(number)
        precondition(FileManager.default.createFile(atPath: path, contents: cut.map { bytes.prefix($0) } ?? bytes))
        if cut == nil, let thumbnail = take.thumbnail {
            try? FileManager.default.copyItem(atPath: directory + "/" + thumbnail, toPath: folder + "/" + thumbnail)
        }
        return path
    }
}

/// Every file in a folder and its bytes (symbolic links followed), to show nothing changed;
/// all but the folder's lock file, which a writing command makes to lock it and leaves.
func snapshot(_ folder: String) -> [String: Data] {
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0 != FolderLock.fileName }
    return Dictionary(uniqueKeysWithValues: names.map { ($0, FileManager.default.contents(atPath: folder + "/" + $0) ?? Data()) })
}
