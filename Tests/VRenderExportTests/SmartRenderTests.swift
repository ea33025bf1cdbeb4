import Foundation
import Testing
import VRenderCore
import VRenderMedia
import VRenderTestSupport
@testable import VRenderExport

/// Smart rendering, judged by ffmpeg: trims inside groups of pictures copy every whole group
/// (its frames decode bit-identical to ffmpeg's decode of the take), re-encode only the frames
/// from each cut to the next clean keyframe (≥ 45 dB PSNR against it), and the output decodes
/// without a word from `ffmpeg -v error`, for H.264 and HEVC with B-frames, into .mp4 and .mkv.
@Suite struct SmartRenderTests {
    let directory = TestMedia.scratchDirectory()

    /// A 4 s take at 30 fps with B-frames and a closed group of pictures every second, and a tone.
    private func makeTake(_ name: String, codec: [String]) throws -> String {
        let path = directory + "/" + name
        let run = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=192x108:rate=30",
                                                      "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                                                      "-t", "4", "-pix_fmt", "yuv420p"] + codec + ["-c:a", "aac", "-shortest", path])
        try #require(run.status == 0, "\(run.standardError)")
        return path
    }

    private static let h264 = ["-c:v", "libx264", "-g", "30", "-bf", "3", "-preset", "veryfast"]
    private static let hevc = ["-c:v", "libx265", "-x265-params", "keyint=30:min-keyint=30:open-gop=0:bframes=4:log-level=error",
                               "-preset", "ultrafast", "-tag:v", "hvc1"]

    /// ffmpeg's frame hashes of `path`'s video (all, or `frames` in display order from 0).
    private func hashes(_ path: String, frames: ClosedRange<Int>? = nil) -> [String] {
        let select = frames.map { ["-vf", "select='between(n,\($0.lowerBound),\($0.upperBound))'"] } ?? []
        let text = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-map", "0:v"] + select
                                  + ["-fps_mode", "passthrough", "-f", "framemd5", "-"]).standardOutput
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    /// ffprobe's key_frame of each of `path`'s video frames, in display order.
    private func keyframes(_ path: String) -> [Bool] {
        // JSON: csv adds a line for each frame's side data.
        let text = ProgramRun.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=key_frame",
                                                       "-of", "json", path]).standardOutput
        let frames = (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?["frames"] as? [[String: Any]]
        return (frames ?? []).map { ($0["key_frame"] as? Int) == 1 }
    }

    /// Per output frame of `outputFrames`, its PSNR (average of the planes) against the source frames `frames`.
    private func psnr(_ output: String, frames outputFrames: ClosedRange<Int>, source: String, frames: ClosedRange<Int>) -> [Double] {
        let log = directory + "/psnr-\(UUID().uuidString).log"
        _ = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", output, "-i", source, "-lavfi",
                                               "[1:v]select='between(n,\(frames.lowerBound),\(frames.upperBound))',settb=1/30,setpts=N[r];"
                                               + "[0:v]select='between(n,\(outputFrames.lowerBound),\(outputFrames.upperBound))',settb=1/30,setpts=N[o];[o][r]psnr=stats_file=\(log)", "-f", "null", "-"])
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            line.split(separator: " ").first { $0.hasPrefix("psnr_avg:") }.map { Double($0.dropFirst(9)) ?? .infinity }
        }
    }

    /// Exports `trims` (frames of `take`, in and out) with the plan's choice, and checks every
    /// output frame: copied ones bit-identical, re-encoded ones ≥ 45 dB, no decoder error.
    private func check(take: String, trims: [(Int, Int)], output: String) throws {
        let list = output + ".txt"
        try trims.map { "file '\(take)'\ninpoint \(Double($0.0) / 30)\noutpoint \(Double($0.1) / 30)\n" }.joined()
            .write(toFile: list, atomically: true, encoding: .utf8)
        let summary = try Exporter(options: ExportOptions(inputs: [list], output: output)).export()
        #expect(summary.mode == "smart-render", "\(summary.reason)")
        let spans = try #require(summary.smartSpans)
        #expect(spans.contains { $0.kind == .copy } && spans.contains { $0.kind == .encode })
        let errors = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", output, "-f", "null", "-"])
        #expect(errors.status == 0 && errors.standardError.isEmpty, "\(errors.standardError)")
        // Each output frame: its source frame, and whether a span copied it.
        var expected: [(hash: String, copied: Bool)] = []
        for span in spans {
            let first = Int((span.start * 30).rounded())
            let source = hashes(take, frames: first...(first + span.frames - 1))
            #expect(source.count == span.frames)
            expected += source.map { ($0, span.kind == .copy) }
        }
        let got = hashes(output)
        try #require(got.count == expected.count && summary.frames == expected.count, "\(got.count) frames, \(expected.count) expected")
        let copied = zip(got, expected).filter { $0.1.copied }
        #expect(copied.allSatisfy { $0.0 == $0.1.hash }, "a copied frame differs from the source's")
        // One encoder re-encodes every span (`SpanEncodings`): each span starts on a keyframe
        // of its own, so it decodes from nothing before it, and has no other.
        let keys = keyframes(output)
        try #require(keys.count == expected.count, "\(keys.count) frames probed")
        var first = 0
        for span in spans {
            if span.kind == .encode {
                #expect(keys[first] && !keys[(first + 1)..<(first + span.frames)].contains(true),
                        "take \(span.take) piece \(span.piece): re-encoded \(span.start)–\(span.end) s keyframes \(keys[first..<(first + span.frames)])")
            }
            first += span.frames
        }
        // PSNR of each piece's frames against the source's, re-encoded ones ≥ 45 dB.
        var at = 0
        for (index, trim) in trims.enumerated() {
            let count = spans.filter { $0.piece == index }.map(\.frames).reduce(0, +)
            let values = psnr(output, frames: at...(at + count - 1), source: take, frames: trim.0...(trim.1 - 1))
            let pieceFrames = Array(expected[at..<(at + count)])
            #expect(values.count >= count)
            for (value, frame) in zip(values, pieceFrames) where !frame.copied {
                #expect(value >= 45, "piece \(index + 1): a re-encoded frame at \(value) dB")
            }
            at += count
        }
    }

    /// Trims of frames: inside groups at both ends, an out-point on a keyframe, one with no
    /// keyframe inside (re-encoded whole), one whose in-point is on a keyframe.
    private static let trims = [(14, 77), (40, 90), (95, 110), (60, 103)]

    @Test(arguments: ["mp4", "mkv"]) func h264WithBFramesCopiesWholeGroupsAndReencodesAroundCuts(container: String) throws {
        let take = try makeTake("h264.mp4", codec: Self.h264)
        try check(take: take, trims: Self.trims, output: directory + "/h264-smart.\(container)")
    }

    @Test(arguments: ["mp4", "mkv"]) func hevcWithBFramesCopiesWholeGroupsAndReencodesAroundCuts(container: String) throws {
        let take = try makeTake("hevc.mov", codec: Self.hevc)
        try check(take: take, trims: Self.trims, output: directory + "/hevc-smart.\(container)")
    }

    @Test func thePlanSaysWhichSpansAreCopiedAndWhichReencoded() throws {
        let take = try makeTake("h264.mp4", codec: Self.h264)
        let list = directory + "/plan.txt"
        try "file '\(take)'\ninpoint 0.5\noutpoint 2.8\nfile '\(take)'\ninpoint 1\noutpoint 2\n".write(toFile: list, atomically: true, encoding: .utf8)
        let plan = try ExportPlanner.plan(ExportOptions(inputs: [list], output: directory + "/plan.mp4"))
        #expect(plan.summaryLines.contains { $0.hasPrefix("plan: smart render: take 1: re-encode 0.500–1.000 s (15 frames), copy 1.000–") },
                "\(plan.summaryLines)")
        // The last group is copied past its keyframe (2 s) for as long as its packets in decoding
        // order show its first pictures: at most the 3 B-frames' worth before 2.8 s is re-encoded.
        let spans = try #require(plan.smartRender?.pieces[0].spans)
        #expect(spans.map(\.kind) == [.encode, .copy, .encode] && spans[1].end > 2.5 && abs(spans[2].end - 2.8) < 0.001, "\(spans)")
        #expect(spans[1].end == spans[2].start && spans[2].frames <= 3, "\(spans)")
        #expect(abs((plan.smartRender?.pieces[0].tailDecodeFrom ?? 0) - 2) < 0.001)
        #expect(plan.smartRender?.pieces[1].spans.map(\.kind) == [.copy])
        // Asked to re-encode, it transcodes as before.
        let transcode = try ExportPlanner.plan(ExportOptions(inputs: [list], output: directory + "/plan.mp4", codec: .encode(.h264)))
        #expect(transcode.mode == .transcode && transcode.smartRender == nil)
    }

    @Test func aCodecWithoutAnEncoderIsTranscodedAndThePlanSaysWhy() throws {
        let take = try makeTake("mpeg4.mp4", codec: ["-c:v", "mpeg4", "-g", "30", "-bf", "2"])
        let list = directory + "/mpeg4.txt"
        try "file '\(take)'\ninpoint 0.5\n".write(toFile: list, atomically: true, encoding: .utf8)
        let plan = try ExportPlanner.plan(ExportOptions(inputs: [list], output: directory + "/mpeg4-out.mp4"))
        #expect(plan.mode == .transcode)
        #expect(plan.reason.hasSuffix("(no smart render: smart rendering re-encodes only H.264 and HEVC, and the takes are mpeg4)"), "\(plan.reason)")
    }

    @Test func spansOfAHighProfileStreamKeepHighWithoutCABAC() throws {
        let avcC: [UInt8] = [1, 0x64, 0, 0x1E, 0xFF, 0xE1, 0, 4, 0x67, 0x64, 0x00, 0x1E, 1, 0, 4, 0x68, 0xEE, 0x3C, 0x80]
        let render = SmartRender(pieces: [], encoder: "libx264", format: try #require(NALFormat(codec: .h264, extradata: avcC)))
        let high = try #require(render.encoderOptions(profile: 100, level: 40, width: 1920)["x264-params"]).split(separator: ":")
        #expect(high.contains("8x8dct=1") && !high.contains("cabac=1") && high.contains("sync-lookahead=0"), "\(high)")
        let main = try #require(render.encoderOptions(profile: 77, level: 40, width: 1920)["x264-params"]).split(separator: ":")
        #expect(main.contains("cabac=1") && !main.contains("8x8dct=1"), "\(main)")
    }

    /// x265 codes 32×32 blocks only from HD up (a third of its time at 1080p); the small
    /// pictures of these tests keep its finer blocks (32×32 alone cost them 2-4 dB).
    @Test func hevcSpansCodeCoarseBlocksOnlyFromHDUp() throws {
        let render = SmartRender(pieces: [], encoder: "libx265", format: try #require(NALFormat(codec: .hevc, extradata: [0, 0, 0, 1, 0x40, 0x01, 0x0C])))
        func params(width: Int) throws -> [Substring] {
            try #require(render.encoderOptions(profile: 1, level: 120, width: width)["x265-params"]).split(separator: ":")
        }
        #expect(try params(width: 1920).contains("min-cu-size=32") && params(width: 1280).contains("min-cu-size=32"))
        #expect(try !params(width: 1279).contains("min-cu-size=32") && !params(width: 192).contains("min-cu-size=32"))
        #expect(try params(width: 192).contains("rd=1") && params(width: 192).contains("level-idc=40"))
    }

    /// Skipping frames nothing refers to (most B-frames) leaves every other frame decodable:
    /// smart rendering's decode from a keyframe to its cut.
    @Test(arguments: ["h264.mp4", "hevc.mov"]) func skippingNonReferenceFramesDecodesTheRest(name: String) throws {
        let take = try makeTake(name, codec: name == "h264.mp4" ? Self.h264 : Self.hevc)
        func decoded(skipping: Bool) throws -> (frames: Int, damaged: Int) {
            let demuxer = try openDemuxer(take)
            let stream = try #require(demuxer.streamCodecs.firstIndex { $0.kind == "video" })
            let decoder = try Decoder(demuxer: demuxer, streamIndex: stream)
            decoder.skipsNonReferenceFrames = skipping
            var frames = 0
            let packet = Packet()
            while demuxer.read(into: packet) {
                guard packet.streamIndex == stream else { continue }
                try decoder.decode(packet, makeFrame: Frame.init) { _ in frames += 1 }
            }
            try decoder.decode(nil, makeFrame: Frame.init) { _ in frames += 1 }
            return (frames, decoder.damaged)
        }
        let all = try decoded(skipping: false), references = try decoded(skipping: true)
        #expect(all.frames == 120 && all.damaged == 0 && references.damaged == 0)
        #expect(references.frames < all.frames * 3 / 4 && references.frames >= 40, "\(references.frames) of \(all.frames)")
    }

    @Test func parameterSetsGoBackAfterTheAccessUnitDelimiter() throws {
        // avcC: version 1, High, level 3.0, 4-byte lengths, one SPS, one PPS.
        let sps: [UInt8] = [0x67, 0x64, 0x00, 0x1E], pps: [UInt8] = [0x68, 0xEE, 0x3C, 0x80]
        let avcC: [UInt8] = [1, 0x64, 0, 0x1E, 0xFF, 0xE1, 0, 4] + sps + [1, 0, 4] + pps
        let format = try #require(NALFormat(codec: .h264, extradata: avcC))
        #expect(format.lengthSize == 4 && format.parameterSets == [sps, pps])
        let delimiter: [UInt8] = [0x09, 0xF0], slice: [UInt8] = [0x65, 0x88, 0x84]
        #expect(format.unpack(format.withParameterSets(format.pack([delimiter, slice]))) == [delimiter, sps, pps, slice])
        #expect(format.unpack(format.packed(annexB: [0, 0, 0, 1] + sps + [0, 0, 1] + slice + [0])) == [sps, slice])
    }
}
