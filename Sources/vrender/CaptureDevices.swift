import VRenderCapture
import VRenderCore

/// Opens the capture source `--device` names: `synthetic[:seed=N]` or a V4L2 device path.
enum CaptureDevices {
    static func open(_ device: String, request: CaptureRequest) throws -> any CaptureSource {
        if SyntheticCamera.isSynthetic(device) {
            return try SyntheticCamera(specification: device, request: request)
        }
        return try V4L2Camera(path: device, request: request)
    }
}
