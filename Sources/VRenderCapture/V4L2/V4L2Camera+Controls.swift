#if canImport(Glibc)
import Glibc
#endif
internal import CV4L2
import VRenderCore

/// The camera's zoom and torch: the device's controls when it has them, else digital zoom
/// and "unsupported" torch.
struct ControlState {
    /// V4L2_CID_ZOOM_ABSOLUTE, when the device has a writable one.
    var zoomControl: V4L2ControlInfo?
    /// V4L2_CID_FLASH_LED_MODE with a torch mode, and V4L2_CID_FLASH_TORCH_INTENSITY if present.
    var torchMode: V4L2ControlInfo?
    var torchIntensity: V4L2ControlInfo?
    var zoom = 1.0
    var torch = 0.0
    var ramp: ZoomRamp?
    /// The zoom control value last set, so a ramp does not repeat VIDIOC_S_CTRL every frame.
    var lastZoomValue: Int?

    /// The largest digital zoom: beyond it a crop of a webcam picture is mush (the seed's
    /// quality limit for its virtual device, too).
    static let maximumDigitalZoom = 6.0

    /// Factors the zoom can take. A zoom control whose minimum is positive is read as a focal
    /// length (UVC's wObjectiveFocalLength: value/minimum is the factor); one starting at 0 has
    /// no such meaning, so its range is spread over 1…6, as digital zoom.
    var zoomRange: ClosedRange<Double> {
        guard let control = zoomControl, control.maximum > control.minimum else { return 1...Self.maximumDigitalZoom }
        if control.minimum >= 1 { return 1...(Double(control.maximum) / Double(control.minimum)) }
        return 1...Self.maximumDigitalZoom
    }

    func controlValue(forZoom factor: Double) -> Int {
        guard let control = zoomControl else { return 0 }
        let range = zoomRange
        let raw = control.minimum >= 1
            ? factor * Double(control.minimum)
            : Double(control.minimum) + (factor - 1) / (range.upperBound - 1) * Double(control.maximum - control.minimum)
        let step = max(1, control.step)
        let snapped = control.minimum + Int(((raw - Double(control.minimum)) / Double(step)).rounded()) * step
        return min(max(snapped, control.minimum), control.maximum)
    }

    func zoom(forControlValue value: Int) -> Double {
        guard let control = zoomControl else { return 1 }
        if control.minimum >= 1 { return Double(value) / Double(control.minimum) }
        let range = zoomRange
        return 1 + Double(value - control.minimum) / Double(control.maximum - control.minimum) * (range.upperBound - 1)
    }

    /// The centred crop that digital zoom keeps (even origin and size for 4:2:x chroma), or nil
    /// when the device zooms itself or the zoom is 1.
    func digitalCrop(width: Int, height: Int) -> PixelRect? {
        guard zoomControl == nil, zoom > 1.0001 else { return nil }
        let cropWidth = max(2, Int(Double(width) / zoom) & ~1)
        let cropHeight = max(2, Int(Double(height) / zoom) & ~1)
        return PixelRect(x: ((width - cropWidth) / 2) & ~1, y: ((height - cropHeight) / 2) & ~1,
                         width: cropWidth, height: cropHeight)
    }
}

/// A zoom ramp in progress: `rate` doublings per second from `from` toward `to`, from `start`.
struct ZoomRamp {
    var from: Double
    var to: Double
    var rate: Double
    var start: Double

    /// The factor at `time`, and whether the ramp has arrived.
    func factor(at time: Double) -> (factor: Double, done: Bool) {
        let direction = to >= from ? 1.0 : -1.0
        let factor = from * pow(2, direction * rate * max(0, time - start))
        let done = direction > 0 ? factor >= to : factor <= to
        return (done ? to : factor, done)
    }
}

extension V4L2Camera {
    /// Position back, lens 1x: a V4L2 camera is one fixed module.
    package var state: CameraState {
        CameraState(position: .back, lens: 1, zoom: controls.zoom, torch: controls.torch)
    }

    /// Applies a control change (see `CaptureSource`). Zoom and lens jumps use
    /// V4L2_CID_ZOOM_ABSOLUTE (VIDIOC_S_CTRL) when the device has it, else digital zoom; torch
    /// uses V4L2_CID_FLASH_LED_MODE / V4L2_CID_FLASH_TORCH_INTENSITY; flip, point of interest,
    /// clap and audio gap have no V4L2 equivalent and are reported unsupported.
    package func apply(_ control: CameraControl, at time: Double) -> ControlOutcome {
        switch control {
        case .zoom(let factor):
            controls.ramp = nil
            return setZoom(factor, label: "zoom")
        case .lens(let factor):
            // A V4L2 camera has one lens: a lens jump is a zoom to that factor.
            controls.ramp = nil
            return setZoom(factor, label: "lens")
        case .rampZoom(let target, let rate):
            let range = controls.zoomRange
            let to = min(max(target, range.lowerBound), range.upperBound)
            let clampedRate = min(max(rate, 0.5), 64)
            controls.ramp = ZoomRamp(from: controls.zoom, to: to, rate: clampedRate, start: time)
            var notes: [String] = []
            if to != target { notes.append("zoom \(text(target)) → \(text(to)) (\(rangeText))") }
            if clampedRate != rate { notes.append("ramp rate \(text(rate)) → \(text(clampedRate)) doublings/s (0.5…64)") }
            return notes.isEmpty ? .applied : .clamped(notes.joined(separator: "; "))
        case .torch(let level):
            return setTorch(level)
        case .flip:
            return .unsupported("flip: \(path) is a single camera; there is no front/back to switch to")
        case .pointOfInterest:
            return .unsupported("point of interest: \(path) has no focus/exposure region control in V4L2")
        case .clap, .audioGap:
            return Self.soundActionOutcome(control, path: path)
        }
    }

    /// `clap` and `audio-gap` drive the synthetic camera's clapper; a real camera has none.
    /// (Static, so it is testable without a device.)
    static func soundActionOutcome(_ control: CameraControl, path: String) -> ControlOutcome {
        if case .audioGap = control {
            return .unsupported("audio-gap: \(path) cannot stall its microphone; gaps belong to the synthetic microphone")
        }
        return .unsupported("clap: \(path) cannot clap; the clapper belongs to the synthetic camera")
    }

    /// Queries the zoom and flash controls (VIDIOC_QUERYCTRL) and reads the zoom's current value.
    func discoverControls() throws(V4L2Error) {
        if let zoom = try device.queryControl(VR_V4L2_CID_ZOOM_ABSOLUTE), zoom.isWritable, zoom.maximum > zoom.minimum {
            controls.zoomControl = zoom
            controls.zoom = controls.zoom(forControlValue: (try? device.control(zoom.id)) ?? zoom.minimum)
        }
        let torchValue = Int(V4L2_FLASH_LED_MODE_TORCH.rawValue)
        if let mode = try device.queryControl(VR_V4L2_CID_FLASH_LED_MODE), mode.isWritable, mode.maximum >= torchValue {
            controls.torchMode = mode
            controls.torchIntensity = try device.queryControl(VR_V4L2_CID_FLASH_TORCH_INTENSITY).flatMap { $0.isWritable ? $0 : nil }
        }
    }

    /// Moves a zoom ramp on to capture time `time` (called for every delivered frame).
    func advanceZoomRamp(to time: Double) {
        guard let ramp = controls.ramp else { return }
        let (factor, done) = ramp.factor(at: time)
        _ = setZoom(factor, label: "zoom")
        if done { controls.ramp = nil }
    }

    private func setZoom(_ factor: Double, label: String) -> ControlOutcome {
        let range = controls.zoomRange
        let clamped = min(max(factor, range.lowerBound), range.upperBound)
        if let control = controls.zoomControl {
            let value = controls.controlValue(forZoom: clamped)
            if value != controls.lastZoomValue {
                do {
                    let kept = try device.setControl(control.id, to: value)
                    controls.lastZoomValue = kept
                    controls.zoom = controls.zoom(forControlValue: kept)
                } catch {
                    return .unsupported("zoom: \(path): \(error.call) (zoom_absolute): \(error.message)")
                }
            }
        } else {
            controls.zoom = clamped
        }
        guard abs(clamped - factor) > 1e-9 else { return .applied }
        return .clamped("\(label) \(text(factor)) → \(text(controls.zoom)) (\(rangeText))")
    }

    private func setTorch(_ level: Double) -> ControlOutcome {
        guard let mode = controls.torchMode else {
            return .unsupported("torch: \(path) has no flash/torch control")
        }
        let clamped = min(max(level, 0), 1)
        do {
            if clamped > 0 {
                if let intensity = controls.torchIntensity {
                    let value = intensity.minimum + Int((Double(intensity.maximum - intensity.minimum) * clamped).rounded())
                    try device.setControl(intensity.id, to: value)
                }
                try device.setControl(mode.id, to: Int(V4L2_FLASH_LED_MODE_TORCH.rawValue))
            } else {
                try device.setControl(mode.id, to: Int(V4L2_FLASH_LED_MODE_NONE.rawValue))
            }
        } catch {
            return .unsupported("torch: \(path): \(error.call): \(error.message)")
        }
        controls.torch = clamped
        return clamped == level ? .applied : .clamped("torch \(text(level)) → \(text(clamped)) (0…1)")
    }

    private var rangeText: String {
        let range = controls.zoomRange
        let how = controls.zoomControl == nil ? "digital zoom" : "the device's zoom"
        return "\(how) is \(text(range.lowerBound))…\(text(range.upperBound))x"
    }

    /// 6.0, 0.5, 1.25: a factor with at most two decimals.
    private func text(_ value: Double) -> String { "\((value * 100).rounded() / 100)" }
}
