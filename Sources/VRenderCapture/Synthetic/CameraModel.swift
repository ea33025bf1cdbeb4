import VRenderCore

/// A normalized point on the picture as the user sees it: (0, 0) top-left, (1, 1) bottom-right.
/// On the front camera that is the mirrored preview, as on a phone.
package struct PointOfInterest: Sendable, Equatable, Codable {
    package var x: Double
    package var y: Double

    package init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// Where a phone meters until the user taps somewhere else.
    package static let centre = PointOfInterest(x: 0.5, y: 0.5)
}

/// The camera model evaluated at one instant: everything the scene renderer needs.
package struct CameraSnapshot: Sendable, Equatable {
    package var position: CameraPosition
    /// Native factor of the lens in use (0.5, 1 or 2).
    package var lens: Double
    package var zoom: Double
    /// Torch level 0 (off) ... 1.
    package var torch: Double
    package var pointOfInterest: PointOfInterest

    package init(position: CameraPosition, lens: Double, zoom: Double, torch: Double,
                pointOfInterest: PointOfInterest = .centre) {
        self.position = position
        self.lens = lens
        self.zoom = zoom
        self.torch = torch
        self.pointOfInterest = pointOfInterest
    }

    /// How much of the lens image is cropped and enlarged: 1 at the lens's native factor.
    package var cropFactor: Double { zoom / lens }

    package var state: CameraState { CameraState(position: position, lens: lens, zoom: zoom, torch: torch) }
}

/// A phone camera module as the seed app drives it through AVFoundation, reduced to numbers:
/// which lenses exist, what zoom is allowed, how ramps move, torch and point of interest.
/// It renders nothing (`SceneRenderer` does) and reads no clock: time is always an argument, so
/// the same controls at the same times give the same states on any machine.
///
/// Controls are expected in non-decreasing time order (a script, keys as they come); one stamped
/// earlier than the previous one takes effect at the previous one's time, so a ramp never runs
/// backwards. The model keeps only the latest settings: `snapshot(at:)` evaluates a ramp in
/// progress but does not replay history before the last control.
package struct CameraModel: Sendable, Equatable {
    /// The seed's quality limit: it never zooms past 6x even where the device could.
    package static let qualityZoomLimit = 6.0
    /// AVFoundation clamps ramp rates; these are the limits the seed's ramps stay within.
    package static let rampRates: ClosedRange<Double> = 0.5...64

    /// Native factors of the lenses each position has, widest first.
    package static func lenses(of position: CameraPosition) -> [Double] {
        switch position {
        case .back: [0.5, 1, 2]
        case .front: [1]
        }
    }

    /// What the simulated hardware would allow (`videoMaxZoomFactor` of a typical triple-camera
    /// phone: 15x behind, 10x in front). Both exceed the quality limit, which therefore decides.
    package static func maximumAvailableZoom(of position: CameraPosition) -> Double {
        switch position {
        case .back: 15
        case .front: 10
        }
    }

    /// Zoom factors allowed at `position`: the widest lens up to min(available, quality limit).
    package static func zoomRange(of position: CameraPosition) -> ClosedRange<Double> {
        lenses(of: position)[0]...Swift.min(maximumAvailableZoom(of: position), qualityZoomLimit)
    }

    /// The longest lens whose native factor is at most `zoom`; the rest of the zoom is a crop.
    package static func lens(forZoom zoom: Double, position: CameraPosition) -> Double {
        let available = lenses(of: position)
        return available.last { $0 <= zoom } ?? available[0]
    }

    package internal(set) var position: CameraPosition
    /// Torch level 0 (off) ... 1.
    package internal(set) var torch: Double
    package internal(set) var pointOfInterest: PointOfInterest
    var motion: ZoomMotion
    /// Time of the latest control, the earliest any later control can take effect.
    private var latestControlTime = 0.0

    /// A camera at `position` with zoom 1 (the wide lens: the seed's default), torch off,
    /// metering the centre.
    package init(position: CameraPosition = .back) {
        self.position = position
        torch = 0
        pointOfInterest = .centre
        motion = .steady(1)
    }

    /// The zoom factor at `time`, following a ramp in progress.
    package func zoom(at time: Double) -> Double {
        motion.zoom(at: time)
    }

    /// True while a ramp has not yet reached its target at `time`.
    package func isRamping(at time: Double) -> Bool {
        motion.isMoving(at: time)
    }

    package func snapshot(at time: Double) -> CameraSnapshot {
        let zoom = zoom(at: time)
        return CameraSnapshot(position: position, lens: Self.lens(forZoom: zoom, position: position),
                              zoom: zoom, torch: torch, pointOfInterest: pointOfInterest)
    }

    package func state(at time: Double) -> CameraState {
        snapshot(at: time).state
    }

    /// Applies `control` at `time` (seconds). Out-of-range requests are clamped and the outcome
    /// says what was changed and why (`.clamped("zoom 10 → 6.0 (the quality limit)")`); nothing
    /// is ever refused.
    package mutating func apply(_ control: CameraControl, at time: Double) -> ControlOutcome {
        let now = time.isFinite ? Swift.max(time, latestControlTime) : latestControlTime
        latestControlTime = now
        switch control {
        case .zoom(let factor):
            return setZoom(factor, word: "zoom", at: now)
        case .lens(let factor):
            return setZoom(factor, word: "lens", at: now)
        case .rampZoom(let target, let rate):
            return ramp(to: target, rate: rate, at: now)
        case .torch(let level):
            return setTorch(level)
        case .flip:
            return flip(at: now)
        case .pointOfInterest(let x, let y):
            return setPointOfInterest(x: x, y: y)
        case .clap, .audioGap:
            // Sound belongs to the clapper, which SyntheticCamera serves before the model.
            return .unsupported("the camera model has no clapper")
        }
    }
}

/// How the zoom factor moves: held, or ramping exponentially toward a target.
enum ZoomMotion: Sendable, Equatable {
    case steady(Double)
    /// log₂(zoom) moves by `rate` per second from `start` (at `startTime`) until it reaches
    /// `target`; the logs are kept so every evaluation does one exp2 and no log.
    case ramp(startLog: Double, targetLog: Double, target: Double, startTime: Double, rate: Double)

    func zoom(at time: Double) -> Double {
        switch self {
        case .steady(let zoom):
            return zoom
        case .ramp(let startLog, let targetLog, let target, let startTime, let rate):
            let elapsed = Swift.max(0, time - startTime)
            let distance = targetLog - startLog
            let travelled = rate * elapsed
            // Snap to the target itself once reached, so the end value is exact.
            if travelled >= Swift.abs(distance) { return target }
            let log = distance >= 0 ? startLog + travelled : startLog - travelled
            return DeterministicMath.exp2(log)
        }
    }

    func isMoving(at time: Double) -> Bool {
        switch self {
        case .steady:
            return false
        case .ramp(let startLog, let targetLog, _, let startTime, let rate):
            return rate * Swift.max(0, time - startTime) < Swift.abs(targetLog - startLog)
        }
    }
}
