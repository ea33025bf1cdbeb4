import Foundation
import Testing
import VRenderCore
import VRenderTestSupport
@testable import VRenderMedia

@Suite struct ProbeTests {
    @Test func describesAnH264TakeWithAudio() throws {
        let info = try Probe.probe(TestMedia.path("same_1.mov"))
        #expect(info.video.codecName == "h264")
        #expect(info.video.width == 1280 && info.video.height == 720)
        #expect(info.video.pixelFormat == "yuv420p")
        #expect(info.video.frameRate == Rational(30, 1))
        #expect(abs(info.duration - 2.0) < 0.001)
        #expect(info.video.rotation == .none)
        #expect(!info.video.extradata.isEmpty)
        let audio = try #require(info.audio)
        #expect(audio.codecName == "aac")
        #expect(audio.sampleRate == 48_000)
        #expect(audio.channels == 1)
    }

    @Test func readsRotationAsAClockwiseTurn() throws {
        // This file's display matrix turns the picture 90° counter-clockwise (ffprobe's
        // "rotation=90"; ffmpeg's autorotate applies transpose=cclock): 270° clockwise.
        let info = try Probe.probe(TestMedia.path("portrait_rot90.mov"))
        #expect(info.video.rotation == .clockwise270)
        #expect(info.video.uprightSize == (720, 1280))
        #expect(info.video.displayMatrix?.count == 9)
    }

    /// Found by fuzzing (scripts/fuzz.sh media): an all-zero display matrix (a damaged 'tkhd')
    /// crashed probing; players show such a picture unrotated, and so does vrender.
    @Test func readsAnAllZeroDisplayMatrixAsNoRotation() throws {
        let info = try Probe.probe(TestMedia.repositoryRoot + "/testdata/fuzz/media/zero-matrix.mov")
        #expect(info.video.rotation == .none)
        #expect(info.video.displayMatrix == [Int32](repeating: 0, count: 9))
    }

    /// Found by fuzzing (CI's `make fuzz`, media): a damaged file whose packet times sit near
    /// Int64's ends trapped on an overflow measuring its length. It is probed now, its length a time.
    @Test func measuresALengthFromTimesNearTheEndsOfInt64() throws {
        let info = try Probe.probe(TestMedia.repositoryRoot + "/testdata/fuzz/media/overflowing-times.mkv")
        #expect(info.duration.isFinite && info.duration >= 0)
    }

    @Test func takesDurationFromTheContainerWhenTheStreamHasNone() throws {
        let info = try Probe.probe(TestMedia.path("mpeg4_854x480_24_noaudio.mkv"))
        #expect(info.video.codecName == "mpeg4")
        #expect(abs(info.duration - 2.0) < 0.05)
        #expect(info.audio == nil)
        #expect(info.video.frameRate == Rational(24, 1))
    }

    @Test(arguments: [
        ("bad/empty.mov", "empty file"),
        ("bad/notes.mov", "not a media file"),
        ("bad/truncated.mov", "truncated before its index"),
        ("bad/audio_only.m4a", "no video stream"),
        ("does-not-exist.mov", "no such file"),
        ("bad", "is a directory"),
    ])
    func namesTheFileAndTheProblem(name: String, reason: String) {
        let path = TestMedia.path(name)
        do {
            _ = try Probe.probe(path)
            Issue.record("probing \(name) should fail")
        } catch let error as VRenderError {
            #expect(error.kind == .input)
            #expect(error.subject == path)
            #expect(error.reason.contains(reason), "\(error.reason)")
        } catch {
            Issue.record("unexpected error type: \(error)")
        }
    }
}

@Suite struct DecoderTests {
    @Test func decodesEveryFrameOfATake() throws {
        let demuxer = try Demuxer(path: TestMedia.path("small_a.mov"))
        let info = try demuxer.info()
        let decoder = try Decoder(demuxer: demuxer, streamIndex: info.video.index)
        let packet = Packet()
        var frames = 0
        var times: [Double] = []
        let count: (Frame) -> Void = { frame in
            frames += 1
            times.append(decoder.seconds(of: frame) ?? -1)
        }
        while demuxer.read(into: packet) {
            if packet.streamIndex == info.video.index { try decoder.decode(packet, makeFrame: Frame.init, output: count) }
        }
        try decoder.decode(nil, makeFrame: Frame.init, output: count)
        #expect(frames == 30)
        #expect(times.sorted() == times)  // presentation order
        #expect(abs(times.last! - 29.0 / 30.0) < 0.001)
        #expect(decoder.damaged == 0)
    }

    @Test func countsDamageInsteadOfFailing() throws {
        let demuxer = try Demuxer(path: TestMedia.path("damaged_middle.mov"))
        let info = try demuxer.info()
        let decoder = try Decoder(demuxer: demuxer, streamIndex: info.video.index)
        let packet = Packet()
        var frames = 0
        while demuxer.read(into: packet) {
            if packet.streamIndex == info.video.index { try decoder.decode(packet, makeFrame: Frame.init) { _ in frames += 1 } }
        }
        try decoder.decode(nil, makeFrame: Frame.init) { _ in frames += 1 }
        #expect(decoder.damaged > 0)
        #expect(frames > 30)  // most of the take still decodes
    }
}
