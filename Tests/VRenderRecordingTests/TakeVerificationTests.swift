import Foundation
import Synchronization
import Testing
import VRenderCapture
import VRenderCore
import VRenderMedia
import VRenderTestSupport
@testable import VRenderRecording
@testable import VRenderTakes

/// Item 3 of issue 10: every take is read back when it ends, and the result is in takes.json.
/// Item 4: `--codec auto` on a live source picks the codec this machine keeps up with.
@Suite struct TakeVerificationTests {
    let directory = TestMedia.scratchDirectory()

    @Test func everyTakeIsReadBackAndItsCheckSaved() throws {
        let takes = try Recorder(source: FakeCamera(), plan: RecordingPlan(outputDirectory: directory, takes: 2, duration: 1,
                                                                           codec: .h264)).run()
        #expect(takes.map(\.check) == [TakeCheck(decodableFrames: 30, damagedFrames: 0, duration: 1, problem: nil),
                                       TakeCheck(decodableFrames: 30, damagedFrames: 0, duration: 1, problem: nil)])
        #expect(try TakesManifest.load(from: directory).takes == takes)
    }

    @Test func aCutTakeReadsBackShortAndSaysSo() throws {
        let take = try #require(try Recorder(source: FakeCamera(width: 160, height: 120), plan: RecordingPlan(
            outputDirectory: directory, duration: 2, codec: .h264)).run().first)
        let path = directory + "/" + take.file
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(truncate(path, off_t(size / 2)) == 0)
        let check = TakeVerifier.verify(path: path, expectedFrames: take.frames)
        #expect(check.decodableFrames > 0 && check.decodableFrames < 60)
        #expect(check.problem == "\(60 - check.decodableFrames) of 60 frames do not decode")
    }

    @Test func aFileThatIsNoVideoIsAProblemNotAnError() throws {
        let path = directory + "/segment_0001_X.mov"
        try "not a video".write(toFile: path, atomically: true, encoding: .utf8)
        let check = TakeVerifier.verify(path: path, expectedFrames: 10)
        #expect(check.decodableFrames == 0)
        #expect(check.problem?.contains("cannot be read as a video") == true, "\(String(describing: check.problem))")
        #expect(TakeVerifier.verify(path: directory + "/missing.mov").problem == "no such file")
    }

    @Test func aBrokenTakeIsReportedWhenItIsChecked() throws {
        let events = EventLog()
        let recorder = Recorder(source: FakeCamera(), plan: RecordingPlan(outputDirectory: directory, duration: 0.5),
                                writers: { GarbageWriter($0) }, events: { events.append($0) })
        let takes = try recorder.run()
        #expect(takes.first?.check?.problem?.contains("cannot be read as a video") == true)
        #expect(events.checkedProblems.count == 1)
        #expect(try TakesManifest.load(from: directory).takes.first?.check?.isGood == false)
    }

    @Test func liveAutoCodecIsMeasuredAndAnnounced() throws {
        let events = EventLog()
        let recorder = Recorder(source: FakeCamera(live: true), plan: RecordingPlan(outputDirectory: directory, duration: 0.3),
                                writers: SegmentWriter.factory,
                                liveCodec: { _ in LiveCodecCalibration.Choice(codec: .h264, reason: "measured") },
                                events: { events.append($0) })
        let takes = try recorder.run()
        #expect(takes.map(\.codec) == ["libx264"])
        #expect(events.chosenCodecs == [LiveCodecCalibration.Choice(codec: .h264, reason: "measured")])
    }

    @Test func theDecisionKeepsHEVCOnlyWhileItNeedsHalfTheFrameTime() {
        let format = NegotiatedFormat(pixelFormat: .yuv420p, width: 640, height: 480, frameRate: Rational(25, 1), reason: "")
        func took(_ seconds: Double, atLeast: Bool = false) -> LiveCodecCalibration.Measurement { .init(seconds: seconds, atLeast: atLeast) }
        #expect(LiveCodecCalibration.decide(format: format, hevc: took(0.019), h264: nil).codec == .hevc)
        let slow = LiveCodecCalibration.decide(format: format, hevc: took(0.021), h264: took(0.004))
        #expect(slow.codec == .h264)
        #expect(slow.reason == "HEVC encodes a 640x480 frame in 21.0 ms (52% of the 40.0 ms between frames), too slow to keep up; "
                + "H.264 in 4.0 ms (10% of the 40.0 ms between frames)")
        // Stopped early: a bound, said as one, and never enough to choose HEVC.
        let bound = LiveCodecCalibration.decide(format: format, hevc: took(0.019, atLeast: true), h264: took(0.004))
        #expect(bound.codec == .h264)
        #expect(bound.reason.hasPrefix("HEVC encodes a 640x480 frame in at least 19.0 ms (48% of"))
        #expect(LiveCodecCalibration.decide(format: format, hevc: took(0.1), h264: took(0.035)).reason.hasSuffix("expect dropped frames (try a smaller --size or a lower --fps)"))
        #expect(LiveCodecCalibration.decide(format: format, hevc: nil, h264: took(0.004)).reason.hasPrefix("no HEVC encoder opens;"))
    }

    @Test func anEncoderIsMeasuredOnThisMachine() throws {
        let format = NegotiatedFormat(pixelFormat: .yuv420p, width: 160, height: 120, frameRate: Rational(30, 1), reason: "")
        let pictures = try LiveCodecCalibration.syntheticPictures(format: format, count: 2)
        let measured = try #require(LiveCodecCalibration.secondsPerFrame(.h264, pictures: pictures, format: format, budget: 0.05))
        #expect(!measured.atLeast)
        #expect(measured.seconds > 0 && measured.seconds < 1)
        // An impossible limit (a nanosecond a frame) stops measuring after a tenth of a second
        // (frames enough to pass it, and a budget that would not end first).
        let hopeless = try #require(LiveCodecCalibration.secondsPerFrame(.h264, pictures: pictures, format: format,
                                                                         budget: 100, limit: 1e-9, maxFrames: 20_000))
        #expect(hopeless.atLeast && hopeless.seconds > 1e-9)
    }
}

/// A writer whose "take" is not a video at all: what a broken encoder or disk would leave.
final class GarbageWriter: TakeFileWriter {
    let fileName: String
    let thumbnailName: String? = nil
    let codecName = "garbage"
    private(set) var frames = 0
    private let path: String

    init(_ request: TakeFileRequest) {
        fileName = "segment_\(request.number)_garbage.mov"
        path = request.directory + "/" + fileName
    }

    func write(_ frame: Frame, info: CapturedFrameInfo) throws { frames += 1 }

    func finish() throws -> Double {
        try "no video here".write(toFile: path, atomically: true, encoding: .utf8)
        return Double(frames) / 30
    }
}
