import Testing
import VRenderCore
import VRenderPrompter

/// The scroll model against the seed's timer: a step of speed/60 points per 1/60 s tick, pause
/// or loop at the end, scrolling only while recording, resuming where the last take left it.
struct PrompterScrollTests {
    private func scroll(speed: Double = 30, ending: PrompterEnding = .pause, content: Double = 400,
                        viewport: Double = 100) -> PrompterScroll {
        PrompterScroll(settings: PrompterSettings(speed: speed, fontSize: 28, ending: ending),
                       contentHeight: content, viewportHeight: viewport)
    }

    @Test func itScrollsOnlyWhileRecordingInWholeTicks() {
        var model = scroll(speed: 30)
        #expect(model.offset(at: 5) == 0)
        model.startRecording(at: 1)
        #expect(model.offset(at: 1) == 0)
        // Half a tick has not moved it; one tick is 30/60 = 0.5 points.
        #expect(model.offset(at: 1 + 0.5 / 60) == 0)
        #expect(model.offset(at: 1 + 1.0 / 60) == 0.5)
        #expect(abs(model.offset(at: 3) - 60) < 1e-9)
        model.stopRecording(at: 3)
        #expect(abs(model.offset(at: 100) - 60) < 1e-9)
    }

    @Test func theSpeedIsPointsPerSecondAtEverySpeedInTheRange() {
        for speed in stride(from: 8.0, through: 60.0, by: 4.0) {
            var model = scroll(speed: speed, content: 10_000)
            model.startRecording(at: 0)
            #expect(abs(model.offset(at: 2) - 2 * speed) < 1e-6, "speed \(speed)")
        }
    }

    @Test func settingsOutsideTheSeedsRangesAreClampedAndReported() {
        let (low, lowNotices) = PrompterSettings.clamped(speed: 2, fontSize: 12, ending: .loop)
        #expect(low == PrompterSettings(speed: 8, fontSize: 18, ending: .loop))
        #expect(lowNotices == ["--prompter-speed 2 is below 8 points per second: 8 is used",
                               "--prompter-font 12 is below 18 points: 18 is used"])
        let (high, highNotices) = PrompterSettings.clamped(speed: 80, fontSize: 40.5, ending: .pause)
        #expect(high.speed == 60 && high.fontSize == 36)
        #expect(highNotices.count == 2 && highNotices[1].contains("40.5 is above 36"))
        let (fine, none) = PrompterSettings.clamped(speed: 24, fontSize: 28, ending: .pause)
        #expect(fine == PrompterSettings(speed: 24, fontSize: 28, ending: .pause) && none.isEmpty)
        let (nan, nanNotices) = PrompterSettings.clamped(speed: .nan, fontSize: 28, ending: .pause)
        #expect(nan.speed == 34 && nanNotices.count == 1)

        var model = scroll(speed: 30)
        #expect(model.setSpeed(100, at: 0) == "speed 100 is above 60 points per second: 60 is used")
        #expect(model.settings.speed == 60)
        #expect(model.setSpeed(20, at: 0) == nil)
    }

    @Test func pauseAtTheEndStopsThereAndTheNextTakeStaysThere() {
        var model = scroll(speed: 60, ending: .pause, content: 400, viewport: 100)  // end at 300
        model.startRecording(at: 0)
        #expect(model.offset(at: 4.99) < 300)
        #expect(model.offset(at: 5) == 300)
        #expect(model.offset(at: 60) == 300 && model.isAtEnd(at: 60))
        model.stopRecording(at: 60)
        model.startRecording(at: 70)
        #expect(model.offset(at: 80) == 300)
    }

    @Test func loopGoesBackToTheTopOnTheTickThatReachesTheEnd() {
        var model = scroll(speed: 60, ending: .loop, content: 400, viewport: 100)  // 1 point a tick
        model.startRecording(at: 0)
        #expect(model.offset(at: 299.0 / 60) == 299)
        #expect(model.offset(at: 300.0 / 60) == 0)  // the seed: offset >= max → 0
        #expect(model.offset(at: 310.0 / 60) == 10)
        #expect(model.offset(at: 600.0 / 60) == 0)  // period of 300 ticks from 0
        #expect(model.offset(at: 3600) == Double((3600 * 60 - 300) % 300))
        // What fits in the viewport never scrolls.
        var short = scroll(speed: 60, ending: .loop, content: 80, viewport: 100)
        short.startRecording(at: 0)
        #expect(short.offset(at: 10) == 0)
    }

    @Test func closedFormMatchesTheSeedsTimerTickByTick() {
        for ending in PrompterEnding.allCases {
            var model = scroll(speed: 37, ending: ending, content: 250, viewport: 100)
            model.startRecording(at: 0)
            var offset = 0.0, atEnd = false
            for tick in 1...2000 {
                // The seed's timer: add a step; at the end pause there or go back to 0.
                if !atEnd {
                    offset += 37.0 / 60
                    if offset >= 150 {
                        if ending == .pause { offset = 150; atEnd = true } else { offset = 0 }
                    }
                }
                let model = model.offset(at: Double(tick) / 60)
                #expect(abs(model - offset) < 1e-6, "\(ending) tick \(tick): \(model) vs \(offset)")
                if abs(model - offset) >= 1e-6 { return }
            }
        }
    }

    @Test func threeTakesResumeWhereTheLastLeftOff() {
        var model = scroll(speed: 24, ending: .pause, content: 10_000)
        var ends: [Double] = []
        var starts: [Double] = []
        for (take, (start, stop)) in [(10.0, 13.0), (20.0, 22.5), (30.0, 31.0)].enumerated() {
            starts.append(model.offset(at: start))
            model.startRecording(at: start)
            #expect(model.offset(at: start) == starts[take])
            model.stopRecording(at: stop)
            ends.append(model.offset(at: stop + 5))  // idle between takes: it does not move
        }
        #expect(starts == [0, ends[0], ends[1]])
        #expect(abs(ends[2] - 24 * (3 + 2.5 + 1)) < 1e-6)
    }

    @Test func holdAndResumeWithinATake() {
        var model = scroll(speed: 60)
        model.startRecording(at: 0)
        model.hold(at: 1)
        #expect(model.offset(at: 3) == 60)
        model.resume(at: 3)
        #expect(model.offset(at: 4) == 120)
        // Stopping and starting a take does not undo a hold.
        model.hold(at: 4)
        model.stopRecording(at: 5)
        model.startRecording(at: 6)
        #expect(model.offset(at: 8) == 120)
    }

    @Test func aLayoutChangeKeepsTheOffsetUpToTheNewEnd() {
        var model = scroll(speed: 60, content: 400, viewport: 100)
        model.startRecording(at: 0)
        let bigger = PrompterSettings(speed: 60, fontSize: 36, ending: .pause)
        model.relayout(settings: bigger, contentHeight: 500, viewportHeight: 100, at: 2)
        #expect(model.offset(at: 2) == 120 && model.anchor.fontSize == 36)
        model.relayout(settings: bigger, contentHeight: 150, viewportHeight: 100, at: 2)
        #expect(model.offset(at: 2) == 50)
    }
}

struct PrompterTimelineTests {
    @Test func unrecordedTakesScrollFromTheirRecordingStartAndResumeAcrossTakes() {
        let settings = PrompterSettings(speed: 30, fontSize: 28, ending: .pause)
        let timeline = PrompterTimeline(takes: [.init(preroll: 1, duration: 3, record: nil),
                                                .init(preroll: 0, duration: 2, record: nil)],
                                        settings: settings, maxOffset: { _ in 1000 })
        #expect(timeline.position(take: 0, seconds: 0.5).offset == 0)  // pre-roll
        #expect(timeline.position(take: 0, seconds: 1).offset == 0)
        #expect(abs(timeline.position(take: 0, seconds: 3).offset - 60) < 1e-9)
        #expect(abs(timeline.position(take: 1, seconds: 0).offset - 60) < 1e-9)
        #expect(abs(timeline.position(take: 1, seconds: 2).offset - 120) < 1e-9)
    }

    @Test func aRecordedTakeReplaysItsAnchors() {
        let anchors = [PrompterScroll.Anchor(time: 0, offset: 40, speed: 60, running: true, fontSize: 24),
                       PrompterScroll.Anchor(time: 1, offset: 100, speed: 60, running: false, fontSize: 24),
                       PrompterScroll.Anchor(time: 2, offset: 100, speed: 12, running: true, fontSize: 32)]
        let record = PrompterTakeRecord(script: "s.txt", startOffset: 40, endOffset: 112, speed: 60, fontSize: 24,
                                        ending: .pause, anchors: anchors)
        let timeline = PrompterTimeline(takes: [.init(preroll: 0.5, duration: 3.5, record: record),
                                                .init(preroll: 0, duration: 1, record: nil)],
                                        settings: PrompterSettings(), maxOffset: { _ in 1000 })
        #expect(timeline.position(take: 0, seconds: 0.2) == .init(offset: 40, fontSize: 24))
        #expect(timeline.position(take: 0, seconds: 1.0).offset == 70)
        #expect(timeline.position(take: 0, seconds: 2.0).offset == 100)  // held
        #expect(timeline.position(take: 0, seconds: 3.5) == .init(offset: 112, fontSize: 32))
        // The next, unrecorded take goes on from there at the export's speed.
        #expect(timeline.position(take: 1, seconds: 0).offset == 112)
    }
}

struct PrompterGeometryTests {
    @Test func aPointIsA390thOfTheShorterSide() {
        #expect(PrompterGeometry(pictureWidth: 1920, pictureHeight: 1080).pixelsPerPoint == 1080.0 / 390)
        #expect(PrompterGeometry(pictureWidth: 1080, pictureHeight: 1920).pixelsPerPoint == 1080.0 / 390)
    }

    @Test func theDefaultBoxSpansTheTopAndTheViewportIsInsideIt() {
        let geometry = PrompterGeometry(pictureWidth: 1920, pictureHeight: 1080)
        #expect(geometry.box == PixelRect(x: 96, y: 43, width: 1728, height: 367))
        let viewport = geometry.viewport, padding = Int((16 * 1080.0 / 390).rounded())
        #expect(viewport == PixelRect(x: 96, y: 43 + padding, width: 1728, height: 367 - 2 * padding))
        #expect(geometry.appearance.textWidth == 1728 - 2 * padding)
    }

    @Test func aRequestedBoxIsMovedAndResizedToFitWithANotice() {
        let fits = PrompterGeometry.fitted(PixelRect(x: 100, y: 500, width: 800, height: 300), pictureWidth: 1280, pictureHeight: 720)
        #expect(fits.geometry.box == PixelRect(x: 100, y: 420, width: 800, height: 300))
        #expect(fits.notice?.contains("does not fit in the 1280x720 picture: 100,420,800,300 is used") == true)
        let tiny = PrompterGeometry.fitted(PixelRect(x: 0, y: 0, width: 10, height: 10), pictureWidth: 1280, pictureHeight: 720)
        #expect(tiny.geometry.box == PixelRect(x: 0, y: 0, width: 296, height: 215))
        #expect(tiny.notice?.contains("smaller than the minimum 160x116 points (296x215 pixels") == true)
        let exact = PrompterGeometry.fitted(PixelRect(x: 0, y: 0, width: 400, height: 300), pictureWidth: 1280, pictureHeight: 720)
        #expect(exact.notice == nil)
        // A picture smaller than the minimum box gets a box as big as the picture.
        let small = PrompterGeometry(pictureWidth: 64, pictureHeight: 48)
        #expect(small.box.width <= 64 && small.box.height <= 48 && small.box.x >= 0 && small.box.y >= 0)
    }
}
