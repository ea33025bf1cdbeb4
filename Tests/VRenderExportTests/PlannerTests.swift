import Testing
import VRenderCore
import VRenderFilters
@testable import VRenderMedia
@testable import VRenderExport

/// A probed take described in code: planning needs no files.
private func take(_ path: String, codec: String = "h264", width: Int = 1280, height: Int = 720,
                  rotation: Rotation = .none, rate: Int = 30, extradata: [UInt8] = [1, 2, 3],
                  audioRate: Int? = 48_000, duration: Double = 2) -> MediaInfo {
    MediaInfo(
        path: path, container: "mov,mp4,m4a,3gp,3g2,mj2",
        video: VideoStreamInfo(index: 0, codecName: codec, width: width, height: height, pixelFormat: "yuv420p",
                               timeBase: Rational(1, 15360), frameRate: Rational(rate, 1), rotation: rotation,
                               displayMatrix: rotation == .none ? nil : [0, 65536, 0, -65536, 0, 0, 0, 0, 1 << 30],
                               extradata: extradata, startTime: 0, duration: duration),
        audio: audioRate.map { AudioStreamInfo(index: 1, codecName: "aac", sampleRate: $0, channels: 1, sampleFormat: "fltp",
                                               timeBase: Rational(1, $0), extradata: [9], startTime: 0, duration: duration) })
}

private func options(_ filter: String = "none", codec: ExportOptions.CodecRequest = .auto,
                     size: (Int, Int)? = nil, output: String = "out.mov", outputIsDefault: Bool = false,
                     audioTrack: Int? = nil) throws -> ExportOptions {
    ExportOptions(inputs: [], output: output, outputIsDefault: outputIsDefault, audioTrack: audioTrack,
                  filter: try FilterRegistry.chain(filter), codec: codec, size: size.map { (width: $0.0, height: $0.1) })
}

/// Every container accepts every copy: these tests plan without files.
private let acceptAll: ExportPlanner.CopyCheck = { _, _, _ in nil }

extension ExportPlanner {
    fileprivate static func plan(takes: [MediaInfo], options: ExportOptions) throws -> ExportPlan {
        try plan(takes: takes, options: options, copyCheck: acceptAll)
    }
}

@Suite struct PlannerTests {
    @Test("--stabilize refuses a take of more than 8 bits before anything is read, naming it")
    func stabilizeRefusesDeepTakesUpFront() throws {
        var deep = take("b.mov")
        deep.video.bitDepth = 10
        var request = try options()
        request.stabilize = try StabilizeRequest()
        #expect(throws: VRenderError.input("b.mov", "--stabilize works on 8-bit video; this take has 10 bits per sample")) {
            try ExportPlanner.plan(takes: [take("a.mov"), deep], options: request)
        }
        #expect(try ExportPlanner.plan(takes: [take("a.mov"), take("c.mov")], options: request).stabilize != nil)
    }

    @Test func matchingTakesAreStreamCopied() throws {
        let plan = try ExportPlanner.plan(takes: [take("a.mov"), take("b.mov"), take("c.mov")], options: try options())
        #expect(plan.mode == .streamCopy)
        #expect(plan.timeline.totalSlots == 180)
    }

    @Test(arguments: [
        (take("b.mov", codec: "hevc"), "b.mov is hevc"),
        (take("b.mov", width: 640, height: 480), "b.mov is 640x480"),
        (take("b.mov", rate: 25), "b.mov runs at 25 fps"),
        (take("b.mov", extradata: [7]), "b.mov has different h264 codec settings"),
        (take("b.mov", rotation: .clockwise90), "b.mov has rotation -90°"),
    ])
    func anyDifferenceMeansTranscodeAndSaysWhy(second: MediaInfo, reason: String) throws {
        let plan = try ExportPlanner.plan(takes: [take("a.mov"), second], options: try options())
        #expect(plan.mode == .transcode)
        #expect(plan.reason.contains(reason), "\(plan.reason)")
    }

    @Test(arguments: [
        (take("b.mov", audioRate: nil), "b.mov has no audio"),
        (take("b.mov", audioRate: 44_100), "b.mov has audio aac 44100 Hz"),
    ])
    func audioDifferencesReencodeOnlyTheAudio(second: MediaInfo, reason: String) throws {
        let plan = try ExportPlanner.plan(takes: [take("a.mov"), second], options: try options())
        #expect(plan.mode == .copyVideo)
        #expect(plan.reason.contains(reason), "\(plan.reason)")
    }

    @Test func aFilterForcesTranscode() throws {
        let plan = try ExportPlanner.plan(takes: [take("a.mov"), take("b.mov")], options: try options("mono"))
        #expect(plan.mode == .transcode)
        #expect(plan.reason.contains("mono"))
    }

    @Test func copyIsRefusedWhenTakesDiffer() throws {
        #expect(throws: VRenderError.option("--codec copy", "cannot stream-copy: b.mov is hevc, the first take is h264")) {
            try ExportPlanner.plan(takes: [take("a.mov"), take("b.mov", codec: "hevc")], options: try options(codec: .copy))
        }
    }

    @Test func uniformRotationStaysMetadata() throws {
        let plan = try ExportPlanner.plan(takes: [take("a.mov", rotation: .clockwise90), take("b.mov", rotation: .clockwise90)],
                                          options: try options("mono"))
        guard case .keepMetadata(.clockwise90, let matrix) = plan.rotation else {
            Issue.record("rotation should be kept as metadata, got \(plan.rotation)")
            return
        }
        #expect(matrix != nil)
        #expect(plan.canvasWidth == 1280 && plan.canvasHeight == 720)  // stored orientation
        #expect(plan.pixelRotation(ofTake: 1) == .none)
    }

    @Test func mixedRotationsAreTurnedUprightInPixels() throws {
        let plan = try ExportPlanner.plan(takes: [take("a.mov"), take("p.mov", rotation: .clockwise90)], options: try options())
        #expect(plan.rotation == .uprightPixels)
        #expect(plan.canvasWidth == 1280 && plan.canvasHeight == 720)
        #expect(plan.pixelRotation(ofTake: 1) == .clockwise90)
        // A portrait first take sets a portrait canvas.
        let portraitFirst = try ExportPlanner.plan(takes: [take("p.mov", rotation: .clockwise90), take("a.mov")], options: try options())
        #expect(portraitFirst.canvasWidth == 720 && portraitFirst.canvasHeight == 1280)
    }

    @Test func sizeOptionSetsTheCanvas() throws {
        let plan = try ExportPlanner.plan(takes: [take("a.mov"), take("b.mov")], options: try options(size: (640, 360)))
        #expect(plan.mode == .transcode)
        #expect(plan.canvasWidth == 640 && plan.canvasHeight == 360)
    }
}

/// A take with several audio tracks, an HDR or full-range colour description, ...
private func withTracks(_ info: MediaInfo, _ count: Int) -> MediaInfo {
    var info = info
    info.audioTracks = (0..<count).map { index in
        AudioStreamInfo(index: 1 + index, codecName: "aac", sampleRate: 48_000, channels: 2, sampleFormat: "fltp",
                        timeBase: Rational(1, 48_000), extradata: [9], startTime: 0, duration: 2)
    }
    return info
}

private func coloured(_ info: MediaInfo, _ colour: ColourDescription, pixelFormat: String = "yuv420p") -> MediaInfo {
    var info = info
    info.video.colour = colour
    info.video.pixelFormat = pixelFormat
    return info
}

@Suite struct ContainerAwarePlanningTests {
    /// A check that refuses VP9 and Opus in .mov, as FFmpeg's mov muxer does.
    private let movRefusesVP9: ExportPlanner.CopyCheck = { container, path, index in
        container.name == "mov" && path.hasSuffix(".webm") ? "a .mov file (mov) cannot hold vp9" : nil
    }

    @Test func withoutOutputNameAContainerThatHoldsTheCopyIsChosen() throws {
        let clip = take("clip.webm", codec: "vp9")
        let plan = try ExportPlanner.plan(takes: [clip], options: try options(output: "export.mov", outputIsDefault: true),
                                          copyCheck: movRefusesVP9)
        #expect(plan.mode == .streamCopy)
        #expect(plan.output == "export.webm")
        #expect(plan.notices.contains { $0.contains("export.webm") })
    }

    @Test func aNamedOutputThatCannotHoldTheCopyIsTranscodedAndSaysWhy() throws {
        let plan = try ExportPlanner.plan(takes: [take("clip.webm", codec: "vp9")], options: try options(output: "out.mov"),
                                          copyCheck: movRefusesVP9)
        #expect(plan.mode == .transcode)
        #expect(plan.output == "out.mov")
        #expect(plan.reason.contains("cannot hold vp9"), "\(plan.reason)")
    }

    @Test func copyIntoAContainerThatCannotHoldItIsRefused() throws {
        #expect(throws: VRenderError.self) {
            try ExportPlanner.plan(takes: [take("clip.webm", codec: "vp9")], options: try options(codec: .copy, output: "out.mov"),
                                   copyCheck: movRefusesVP9)
        }
    }

    @Test func audioTheContainerCannotHoldIsReencodedBesideCopiedVideo() throws {
        let pcmRefused: ExportPlanner.CopyCheck = { _, _, index in index == 1 ? "an .mp4 file (mp4) cannot hold pcm_s16le" : nil }
        let plan = try ExportPlanner.plan(takes: [take("a.mov"), take("b.mov")], options: try options(output: "out.mp4"),
                                          copyCheck: pcmRefused)
        #expect(plan.mode == .copyVideo)
        #expect(plan.audioCodec == .aac)
    }

    @Test func matroskaHoldsNoRotationSoPixelsAreTurned() throws {
        let portrait = take("p.mov", rotation: .clockwise90)
        let plan = try ExportPlanner.plan(takes: [portrait, portrait], options: try options(output: "out.mkv"))
        #expect(plan.mode == .transcode)
        #expect(plan.rotation == .uprightPixels)
        #expect(plan.canvasWidth == 720 && plan.canvasHeight == 1280)
        #expect(plan.uprightCanvas.width == 720 && plan.uprightCanvas.height == 1280)
        // The same takes into .mov keep the rotation as metadata and are copied.
        let mov = try ExportPlanner.plan(takes: [portrait, portrait], options: try options(output: "out.mov"))
        #expect(mov.mode == .streamCopy)
        #expect(mov.uprightRotationDegrees == -90)
    }

    @Test func webmTranscodesToVP9AndOpus() throws {
        let plan = try ExportPlanner.plan(takes: [take("a.mov")], options: try options("mono", output: "out.webm"))
        #expect(plan.videoCodec == .vp9)
        #expect(plan.audioCodec == .opus)
        #expect(throws: VRenderError.self) {
            try ExportPlanner.plan(takes: [take("a.mov")], options: try options(codec: .encode(.h264), output: "out.webm"))
        }
    }
}

@Suite struct AudioTrackPlanningTests {
    @Test func everyTrackIsKeptWhenTakesAgree() throws {
        let plan = try ExportPlanner.plan(takes: [withTracks(take("a.mov"), 2), withTracks(take("b.mov"), 2)],
                                          options: try options("mono"))
        #expect(plan.audio.trackCount == 2)
        #expect(plan.notices.isEmpty)
    }

    @Test func takesThatDisagreeKeepOneTrackAndNameTheDropped() throws {
        let plan = try ExportPlanner.plan(takes: [withTracks(take("a.mov"), 2), withTracks(take("b.mov"), 1)],
                                          options: try options("mono"))
        #expect(plan.audio.trackCount == 1)
        #expect(plan.notices.contains { $0.contains("a.mov: track 2 dropped") }, "\(plan.notices)")
        let second = try ExportPlanner.plan(takes: [withTracks(take("a.mov"), 2), withTracks(take("b.mov"), 1)],
                                            options: try options("mono", audioTrack: 2))
        #expect(second.audio.sources == [[1], [nil]])
        #expect(second.notices.contains { $0.contains("b.mov: has no track 2") })
    }

    /// Takes whose audio tracks carry `labels` (one per track).
    private func labelled(_ path: String, _ labels: [TrackLabel]) -> MediaInfo {
        var info = withTracks(take(path), labels.count)
        for (index, label) in labels.enumerated() { info.audioTracks[index].label = label }
        return info
    }

    private let english = TrackLabel(language: "eng", dispositions: ["default"])
    private let german = TrackLabel(language: "deu", title: "Commentary")

    @Test func labelsOfAgreeingTakesAreKeptAndNamedInThePlan() throws {
        let plan = try ExportPlanner.plan(takes: [labelled("a.mkv", [english, german]), labelled("b.mkv", [english, german])],
                                          options: try options(output: "out.mkv"))
        #expect(plan.audio.labels == [english, german])
        #expect(plan.notices.isEmpty, "\(plan.notices)")
        #expect(plan.summaryLines.contains("plan: tracks: video unlabelled; audio 1 eng (default), 2 deu \"Commentary\""), "\(plan.summaryLines)")
    }

    @Test func tracksInAnotherOrderAreMatchedByLanguage() throws {
        let plan = try ExportPlanner.plan(takes: [labelled("a.mkv", [english, german]), labelled("b.mkv", [german, english]),
                                                  take("c.mkv", audioRate: nil)],
                                          options: try options(output: "out.mkv"))
        #expect(plan.audio.sources == [[0, 1], [1, 0], [nil, nil]])
        #expect(plan.audio.labels.map(\.language) == ["eng", "deu"])
        #expect(plan.notices.contains("audio: b.mkv's tracks (deu, eng) joined by language, in the first take's order (eng, deu)"))
        // The flags follow the language: English is the default in both takes.
        #expect(plan.audio.labels == [english, german])
        #expect(!plan.notices.contains { $0.contains("not marked") }, "\(plan.notices)")
    }

    /// An ordinary join of a .mov (its tracks marked default) and a .mkv (not marked): the
    /// output's one video and one audio track are marked default, with no note and no tracks
    /// line (every export of ordinary takes printed both).
    @Test func theSoleTracksDefaultFlagIsNotWorthANote() throws {
        let marked = TrackLabel(language: "", title: "", dispositions: ["default"])
        let takes = [labelled("a.mov", [marked]), labelled("b.mkv", [TrackLabel()])]
        let plan = try ExportPlanner.plan(takes: takes, options: try options(output: "out.mkv"))
        #expect(plan.audio.labels == [marked])
        #expect(!plan.notices.contains { $0.contains("not marked") }, "\(plan.notices)")
        #expect(!plan.summaryLines.contains { $0.hasPrefix("plan: tracks:") }, "\(plan.summaryLines)")
    }

    @Test func languagesTitlesAndFlagsTakesDisagreeOnAreLeftOutAndNamed() throws {
        let french = TrackLabel(language: "fra", title: "Kommentar", dispositions: ["forced"])
        let plan = try ExportPlanner.plan(takes: [labelled("a.mkv", [english, german]), labelled("b.mkv", [english, french]),
                                                  labelled("c.mkv", [english, TrackLabel()])],
                                          options: try options(output: "out.mkv"))
        #expect(plan.audio.sources == [[0, 1], [0, 1], [0, 1]])
        #expect(plan.audio.labels == [english, TrackLabel()])
        #expect(plan.notices.contains("audio track 2: no language written, the takes differ (a.mkv: deu, b.mkv: fra)"), "\(plan.notices)")
        #expect(plan.notices.contains("audio track 2: no title written, the takes differ (a.mkv: \"Commentary\", b.mkv: \"Kommentar\")"))
        #expect(plan.notices.contains("audio track 2: not marked forced (b.mkv marks it so, a.mkv, c.mkv do not)"))
    }

    @Test func droppedTracksAreNamedWithTheirLanguageAndTheKeptOneIsDefault() throws {
        let plan = try ExportPlanner.plan(takes: [labelled("a.mkv", [english, german]), labelled("b.mkv", [english])],
                                          options: try options(output: "out.mkv"))
        #expect(plan.notices.contains { $0.contains("a.mkv: track 2 (deu \"Commentary\") dropped") }, "\(plan.notices)")
        let chosen = try ExportPlanner.plan(takes: [labelled("a.mkv", [english, german])], options: try options(output: "out.mkv", audioTrack: 2))
        #expect(chosen.audio.labels == [TrackLabel(language: "deu", title: "Commentary", dispositions: ["default"])])
        #expect(chosen.notices.contains { $0.contains("a.mkv: track 1 (eng) dropped") }, "\(chosen.notices)")
    }

    @Test func aMovOutputSpellsGermanAsItsListDoes() throws {
        let plan = try ExportPlanner.plan(takes: [labelled("a.mkv", [english, german])], options: try options(output: "out.mov"))
        #expect(plan.audio.labels.map(\.language) == ["eng", "ger"])
        #expect(plan.notices.contains("audio track 2: language deu written ger, as a .mov file spells it"), "\(plan.notices)")
    }

    @Test func aTakeWithoutAudioContributesSilence() throws {
        let plan = try ExportPlanner.plan(takes: [take("a.mov"), take("b.mov", audioRate: nil)], options: try options())
        #expect(plan.audio.trackCount == 1)
        #expect(plan.audio.sources == [[0], [nil]])
    }
}

@Suite struct ColourPlanningTests {
    private let hlg = ColourDescription.hdr(pq: false)

    @Test func matchingTakesKeepTheirDescription() throws {
        let plan = try ExportPlanner.plan(takes: [take("a.mov"), take("b.mov")], options: try options("mono"))
        #expect(plan.colour.output == .bt709)   // unspecified HD resolves to BT.709, and is written
        #expect(plan.colour.notice == nil)
    }

    @Test func fullRangeBT601WebcamJoinedToHDIsConvertedAndAnnounced() throws {
        let webcam = coloured(take("cam.mkv", width: 640, height: 480), ColourDescription(primaries: 2, transfer: 2, matrix: 5, fullRange: true),
                              pixelFormat: "yuvj422p")
        let plan = try ExportPlanner.plan(takes: [take("a.mov"), webcam], options: try options())
        #expect(plan.colour.output == .bt709)
        #expect(plan.colour.sources[1].fullRange)
        #expect(plan.notices.contains { $0.contains("converted to BT.709") && $0.contains("cam.mkv") })
    }

    @Test func hdrTakesStayHDRUnlessFilteredOrMixed() throws {
        let phone = coloured(take("hdr.mov"), hlg, pixelFormat: "yuv420p10le")
        let kept = try ExportPlanner.plan(takes: [phone, phone], options: try options(size: (640, 360)))
        #expect(kept.colour.tenBit && kept.colour.output.isHLG && kept.videoCodec == .hevc)
        let filtered = try ExportPlanner.plan(takes: [phone], options: try options("mono"))
        #expect(!filtered.colour.tenBit && filtered.colour.toneMapped == [true])
        #expect(filtered.notices.contains { $0.contains("tone-mapped") })
        let mixed = try ExportPlanner.plan(takes: [phone, take("sdr.mov")], options: try options())
        #expect(mixed.colour.toneMapped == [true, false] && mixed.colour.output == .bt709)
    }
}

@Suite("Codec threads of a transcode")
struct CodecThreadsTests {
    private func threads(takes: [MediaInfo], codec: VideoCodecChoice, size: (Int, Int)? = nil,
                         budget: ThreadBudget = ThreadBudget(processors: 6, isShare: false)) throws -> CodecThreads {
        var options = try options("mono", codec: .encode(codec), size: size, output: "out.mkv")
        options.threads = budget
        let plan = try ExportPlanner.plan(takes: takes, options: options)
        #expect(plan.mode == .transcode)
        #expect(plan.threads == budget)
        return CodecThreads.forTranscode(of: plan, budget: plan.threads)
    }

    @Test("x264: one decoder thread (the pipeline overlaps decoding), one encoder thread per processor")
    func h264() throws {
        let chosen = try threads(takes: [take("a.mp4", width: 1920, height: 1080), take("b.mp4")], codec: .h264)
        #expect(chosen == CodecThreads(decoder: 1, encoder: 6))
    }

    @Test("x265 keeps its own pool; the decoder still gets one thread")
    func hevc() throws {
        #expect(try threads(takes: [take("a.mp4")], codec: .hevc) == CodecThreads(decoder: 1, encoder: 0))
        #expect(try threads(takes: [take("a.mp4")], codec: .auto) == CodecThreads(decoder: 1, encoder: 0))
    }

    @Test("a big downscale or a cheap encoder leaves the decoder libavcodec's threads")
    func decoderMayBeTheBottleneck() throws {
        let uhd = take("uhd.mp4", width: 3840, height: 2160)
        #expect(try threads(takes: [uhd], codec: .h264, size: (1920, 1080)).decoder == 0)
        #expect(try threads(takes: [uhd], codec: .h264, size: (2880, 1620)).decoder == 1)   // 56 % of the pixels kept
        #expect(try threads(takes: [take("a.mp4")], codec: .ffv1) == .codecsChoice)
        #expect(try threads(takes: [take("a.mp4")], codec: .vp9) == .codecsChoice)
    }

    @Test("a share of the machine (--threads, a chunk's) bounds every codec that would size its own pool")
    func share() throws {
        let share = ThreadBudget.share(3)
        #expect(try threads(takes: [take("a.mp4")], codec: .h264, budget: share) == CodecThreads(decoder: 1, encoder: 3))
        #expect(try threads(takes: [take("a.mp4")], codec: .hevc, budget: share) == CodecThreads(decoder: 1, encoder: 3))
        #expect(try threads(takes: [take("a.mp4")], codec: .ffv1, budget: share) == CodecThreads(decoder: 3, encoder: 3))
        let uhd = take("uhd.mp4", width: 3840, height: 2160)
        #expect(try threads(takes: [uhd], codec: .h264, size: (1920, 1080), budget: share).decoder == 3)
    }
}
