import Testing
@testable import VRenderCapture
import VRenderCore

/// The simulated camera module: zoom limits, lens choice, ramps, torch, flip, point of interest.
@Suite struct SyntheticCameraModelTests {
    @Test func zoomAboveTheQualityLimitClampsTo6() {
        for position in CameraPosition.allCases {
            var model = CameraModel(position: position)
            let outcome = model.apply(.zoom(10), at: 0)
            #expect(outcome == .clamped("zoom 10 → 6.0 (the quality limit)"))
            #expect(model.zoom(at: 0) == 6)
        }
    }

    @Test func zoomBelowTheWidestLensClampsToItsFactor() {
        var back = CameraModel(position: .back)
        #expect(back.apply(.zoom(0.2), at: 0) == .clamped("zoom 0.2 → 0.5 (the ultra-wide lens's minimum)"))
        #expect(back.zoom(at: 0) == 0.5)
        var front = CameraModel(position: .front)
        #expect(front.apply(.zoom(0.2), at: 0) == .clamped("zoom 0.2 → 1.0 (the front camera's minimum)"))
        #expect(front.zoom(at: 0) == 1)
    }

    @Test func zoomInsideTheRangeIsApplied() {
        var model = CameraModel()
        #expect(model.apply(.zoom(3.5), at: 0) == .applied)
        #expect(model.state(at: 0) == CameraState(position: .back, lens: 2, zoom: 3.5, torch: 0))
        #expect(CameraModel.zoomRange(of: .back) == 0.5...6)
        #expect(CameraModel.zoomRange(of: .front) == 1...6)
    }

    @Test func theLensSwitchesAt1xAnd2x() {
        let expected: [(Double, Double)] = [(0.5, 0.5), (0.99, 0.5), (1.0, 1), (1.99, 1), (2.0, 2), (6, 2)]
        for (zoom, lens) in expected {
            #expect(CameraModel.lens(forZoom: zoom, position: .back) == lens, "zoom \(zoom)")
            var model = CameraModel()
            _ = model.apply(.zoom(zoom), at: 0)
            #expect(model.snapshot(at: 0).lens == lens)
        }
        for zoom in [1.0, 1.99, 2.0, 6.0] {
            #expect(CameraModel.lens(forZoom: zoom, position: .front) == 1)
        }
    }

    @Test func quickLensJumpsZoomToTheLensFactor() {
        var model = CameraModel()
        #expect(model.apply(.lens(0.5), at: 0) == .applied)
        #expect(model.state(at: 0).lens == 0.5)
        #expect(model.apply(.lens(2), at: 1) == .applied)
        #expect(model.state(at: 1) == CameraState(position: .back, lens: 2, zoom: 2, torch: 0))
        var front = CameraModel(position: .front)
        #expect(front.apply(.lens(0.5), at: 0) == .clamped("lens 0.5 → 1.0 (the front camera's minimum)"))
    }

    @Test func aRampDoublesAtItsRateAndHoldsItsTarget() {
        var model = CameraModel()
        #expect(model.apply(.rampZoom(to: 4, rate: 2), at: 0) == .applied)
        #expect(model.zoom(at: 0) == 1)
        #expect(model.zoom(at: 0.25) > 1.41 && model.zoom(at: 0.25) < 1.42)
        #expect(model.zoom(at: 0.5) == 2)
        #expect(model.isRamping(at: 0.5))
        #expect(model.zoom(at: 1.0) == 4)
        #expect(!model.isRamping(at: 1.0))
        #expect(model.zoom(at: 7.5) == 4)
        // The lens follows the ramp.
        #expect(model.snapshot(at: 0.49).lens == 1 && model.snapshot(at: 0.5).lens == 2)
    }

    @Test func aRampDownwardsAndOneStartedLaterTakeTheirTime() {
        var model = CameraModel()
        _ = model.apply(.zoom(4), at: 0)
        _ = model.apply(.rampZoom(to: 0.5, rate: 1), at: 10)
        #expect(model.zoom(at: 10) == 4)
        #expect(model.zoom(at: 11) == 2)
        #expect(model.zoom(at: 12) == 1)
        #expect(model.zoom(at: 13) == 0.5)
        #expect(model.zoom(at: 20) == 0.5)
    }

    @Test func aRampTakesOverFromWhereARunningRampIs() {
        var model = CameraModel()
        _ = model.apply(.rampZoom(to: 4, rate: 2), at: 0)
        _ = model.apply(.rampZoom(to: 1, rate: 1), at: 0.5)
        #expect(model.zoom(at: 0.5) == 2)
        #expect(model.zoom(at: 1.5) == 1)
    }

    @Test func rampRatesAndTargetsClamp() {
        var model = CameraModel()
        #expect(model.apply(.rampZoom(to: 4, rate: 100), at: 0)
                == .clamped("ramp rate 100 → 64.0 doublings/s (the fastest ramp)"))
        #expect(model.zoom(at: 2.0 / 64) == 4)
        #expect(model.apply(.rampZoom(to: 2, rate: 0.1), at: 1)
                == .clamped("ramp rate 0.1 → 0.5 doublings/s (the slowest ramp)"))
        #expect(model.zoom(at: 3) == 2)
        #expect(model.apply(.rampZoom(to: 50, rate: 100), at: 3)
                == .clamped("zoom 50 → 6.0 (the quality limit); ramp rate 100 → 64.0 doublings/s (the fastest ramp)"))
        #expect(model.zoom(at: 4) == 6)
    }

    @Test func torchLevelsClampTo0Through1() {
        var model = CameraModel()
        #expect(model.apply(.torch(level: 0.5), at: 0) == .applied)
        #expect(model.torch == 0.5)
        #expect(model.apply(.torch(level: 1.5), at: 0) == .clamped("torch 1.5 → 1.0 (torch levels run 0...1)"))
        #expect(model.torch == 1)
        #expect(model.apply(.torch(level: -2), at: 0) == .clamped("torch -2 → 0.0 (torch levels run 0...1)"))
        #expect(model.torch == 0)
    }

    @Test func flipReclampsZoomAndKeepsTorch() {
        var model = CameraModel()
        _ = model.apply(.torch(level: 1), at: 0)
        _ = model.apply(.zoom(0.5), at: 0)
        #expect(model.apply(.flip, at: 1) == .clamped("flip: zoom 0.5 → 1.0 (the front camera's minimum)"))
        #expect(model.state(at: 1) == CameraState(position: .front, lens: 1, zoom: 1, torch: 1))
        _ = model.apply(.zoom(3), at: 2)
        #expect(model.apply(.flip, at: 3) == .applied)
        #expect(model.state(at: 3) == CameraState(position: .back, lens: 2, zoom: 3, torch: 1))
    }

    @Test func flipStopsARampWhereItIs() {
        var model = CameraModel()
        _ = model.apply(.rampZoom(to: 4, rate: 2), at: 0)
        _ = model.apply(.flip, at: 0.5)
        #expect(model.zoom(at: 0.5) == 2 && model.zoom(at: 5) == 2)
        #expect(model.position == .front)
    }

    @Test func pointsOfInterestClampToTheUnitSquare() {
        var model = CameraModel()
        #expect(model.pointOfInterest == .centre)
        #expect(model.apply(.pointOfInterest(x: 0.25, y: 0.75), at: 0) == .applied)
        #expect(model.pointOfInterest == PointOfInterest(x: 0.25, y: 0.75))
        #expect(model.apply(.pointOfInterest(x: 1.2, y: 0.5), at: 0)
                == .clamped("point of interest (1.2, 0.5) → (1.0, 0.5) (points are normalized 0...1)"))
        #expect(model.pointOfInterest == PointOfInterest(x: 1, y: 0.5))
    }

    @Test func aControlStampedEarlierTakesEffectAtTheLatestTime() {
        var model = CameraModel()
        _ = model.apply(.rampZoom(to: 2, rate: 1), at: 5)
        _ = model.apply(.rampZoom(to: 4, rate: 1), at: 1)   // late: treated as at 5
        #expect(model.zoom(at: 5) == 1)
        #expect(model.zoom(at: 7) == 4)
    }

    @Test func notANumberNeverBreaksTheModel() {
        var model = CameraModel()
        _ = model.apply(.zoom(2), at: 0)
        #expect(model.apply(.zoom(.nan), at: 1) == .clamped("zoom nan → 2.0 (not a number; zoom kept)"))
        #expect(model.zoom(at: 1) == 2)
        if case .applied = model.apply(.torch(level: .nan), at: 1) { Issue.record("nan torch must be reported") }
        #expect(model.torch == 0)
    }
}
