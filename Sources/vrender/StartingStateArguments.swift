import ArgumentParser
import VRenderCapture
import VRenderCore

/// The camera's state as it starts (`--position`, `--lens`, `--zoom`, `--torch`): what `capture`
/// and `camera` both take, declared once so both read and explain them alike.
struct StartingStateArguments: ParsableArguments {
    @Option(help: "Camera position (synthetic camera): back or front.")
    var position: PositionArgument = .back

    @Option(help: ArgumentHelp("Start on this lens: 0.5, 1 or 2.", valueName: "factor"))
    var lens: Double?

    @Option(help: ArgumentHelp("Start at this zoom factor (clamped to the camera's range).", valueName: "factor"))
    var zoom: Double?

    @Flag(help: "Start with the torch on.")
    var torch = false

    func validate() throws {
        if let lens, ![0.5, 1, 2].contains(lens) { throw ValidationError("--lens must be 0.5, 1 or 2") }
    }

    /// The request with this starting state, at `frameRate` and `size`.
    func request(frameRate: FrameRateArgument, size: SizeArgument?, realtime: Bool) -> CaptureRequest {
        CaptureRequest(frameRate: frameRate.rate, size: size?.value, position: position.value, lens: lens, zoom: zoom,
                       torch: torch, realtime: realtime)
    }
}

enum PositionArgument: String, ExpressibleByArgument, CaseIterable {
    case back, front
    var value: CameraPosition { self == .back ? .back : .front }
}
