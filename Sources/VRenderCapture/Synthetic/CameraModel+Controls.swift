import VRenderCore

/// The controls, each clamping what it cannot honour and saying so in the outcome.
extension CameraModel {
    mutating func setZoom(_ requested: Double, word: String, at time: Double) -> ControlOutcome {
        guard !requested.isNaN else {
            let kept = zoom(at: time)
            motion = .steady(kept)
            return .clamped("\(word) nan → \(kept) (not a number; zoom kept)")
        }
        let (zoom, note) = Self.clampZoom(requested, position: position)
        motion = .steady(zoom)
        return note.map { .clamped("\(word) \(ValueSyntax.text(requested)) → \(zoom) (\($0))") } ?? .applied
    }

    /// Starts a ramp from the zoom at `time` (a ramp in progress is taken over from where it is).
    mutating func ramp(to requested: Double, rate requestedRate: Double, at time: Double) -> ControlOutcome {
        let current = zoom(at: time)
        var notes: [String] = []
        var target = current
        if requested.isNaN {
            notes.append("ramp target nan → \(current) (not a number; zoom kept)")
        } else {
            let (clamped, note) = Self.clampZoom(requested, position: position)
            target = clamped
            if let note { notes.append("zoom \(ValueSyntax.text(requested)) → \(clamped) (\(note))") }
        }
        var rate = requestedRate.isNaN ? Self.rampRates.lowerBound : requestedRate
        if rate < Self.rampRates.lowerBound || requestedRate.isNaN {
            rate = Self.rampRates.lowerBound
            notes.append("ramp rate \(ValueSyntax.text(requestedRate)) → \(rate) doublings/s (the slowest ramp)")
        } else if rate > Self.rampRates.upperBound {
            rate = Self.rampRates.upperBound
            notes.append("ramp rate \(ValueSyntax.text(requestedRate)) → \(rate) doublings/s (the fastest ramp)")
        }
        motion = target == current
            ? .steady(current)
            : .ramp(startLog: DeterministicMath.log2(current), targetLog: DeterministicMath.log2(target),
                    target: target, startTime: time, rate: rate)
        return notes.isEmpty ? .applied : .clamped(notes.joined(separator: "; "))
    }

    mutating func setTorch(_ requested: Double) -> ControlOutcome {
        let level = requested.isNaN ? 0 : Swift.min(Swift.max(requested, 0), 1)
        torch = level
        if level == requested { return .applied }
        return .clamped("torch \(ValueSyntax.text(requested)) → \(level) (torch levels run 0...1)")
    }

    /// Switches camera. The zoom is frozen where it is (a ramp stops, as AVFoundation's does when
    /// the device changes) and brought into the new camera's range; torch and point of interest
    /// carry over.
    mutating func flip(at time: Double) -> ControlOutcome {
        let current = zoom(at: time)
        position = position == .back ? .front : .back
        let (zoom, note) = Self.clampZoom(current, position: position)
        motion = .steady(zoom)
        return note.map { .clamped("flip: zoom \(ValueSyntax.text(current)) → \(zoom) (\($0))") } ?? .applied
    }

    mutating func setPointOfInterest(x: Double, y: Double) -> ControlOutcome {
        func unit(_ value: Double) -> Double { value.isNaN ? 0.5 : Swift.min(Swift.max(value, 0), 1) }
        let point = PointOfInterest(x: unit(x), y: unit(y))
        pointOfInterest = point
        if point.x == x && point.y == y { return .applied }
        return .clamped("point of interest (\(ValueSyntax.text(x)), \(ValueSyntax.text(y))) → (\(point.x), \(point.y)) "
                        + "(points are normalized 0...1)")
    }

    /// `requested` brought into `position`'s zoom range, with the reason when it had to move.
    static func clampZoom(_ requested: Double, position: CameraPosition) -> (Double, String?) {
        let range = zoomRange(of: position)
        if requested > range.upperBound {
            let limit = range.upperBound == qualityZoomLimit
                ? "the quality limit" : "the \(position.rawValue) camera's maximum"
            return (range.upperBound, limit)
        }
        if requested < range.lowerBound {
            let limit = position == .back ? "the ultra-wide lens's minimum" : "the front camera's minimum"
            return (range.lowerBound, limit)
        }
        return (requested, nil)
    }
}
