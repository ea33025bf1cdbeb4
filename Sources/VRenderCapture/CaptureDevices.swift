import VRenderCore

/// The device factory: opens the capture source a `--device` value names, so every command
/// that captures (`capture`, `demo`) reads device names the same way.
public enum CaptureDevices {
    /// `synthetic[:seed=N]` opens the synthetic camera; anything else is a V4L2 device path.
    /// Errors name the device (or the option, such as `--size`, that it cannot honour).
    public static func open(_ device: String, request: CaptureRequest) throws -> any CaptureSource {
        if SyntheticCamera.isSynthetic(device) {
            return try SyntheticCamera(specification: device, request: request)
        }
        return try V4L2Camera(path: device, request: request)
    }
}
