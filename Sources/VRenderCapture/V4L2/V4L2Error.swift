#if canImport(Glibc)
import Glibc
#endif
import VRenderCore

/// A failed V4L2 system call: which one (an ioctl's name such as `VIDIOC_S_FMT`, or `open`,
/// `poll`, `mmap`), the errno it set, `strerror`'s text and the device node.
///
/// Thrown by `V4L2Device`'s chokepoint. The camera turns it into a `VRenderError` that says
/// what to do (`userError`) at its public boundary.
package struct V4L2Error: Error, Sendable, Equatable, CustomStringConvertible {
    package let call: String
    package let code: Int32
    package let message: String
    package let device: String

    init(call: String, code: Int32, device: String) {
        self.call = call
        self.code = code
        self.device = device
        self.message = SystemError(code: code).description
    }

    /// The device went away (unplugged): the take ends cleanly instead of failing.
    package var isDeviceGone: Bool { code == ENODEV }

    package var description: String { "\(device): \(call): \(message) (errno \(code))" }

    /// The error a user sees, naming the device and how to fix the common causes.
    package var userError: VRenderError {
        let detail = "\(call): \(message)"
        switch code {
        case ENOENT:
            return .input(device, "no such device")
        case EACCES, EPERM:
            return .input(device, "permission denied (\(detail)); add your user to the 'video' group or check the node's permissions")
        case EBUSY:
            return .input(device, "device is busy (\(detail)); another program is using the camera")
        case ENODEV, ENXIO:
            return .input(device, "device is gone (\(detail)); was it unplugged?")
        case EISDIR:
            return .input(device, "is a folder, not a V4L2 device; `vrender devices` lists cameras")
        case ENOTTY where call == "fstat":
            return .input(device, "not a V4L2 device: not a character device (a file, a folder or a pipe); "
                          + "`vrender devices` lists cameras")
        case ENOTTY where call == "VIDIOC_QUERYCAP":
            return .input(device, "not a V4L2 device (\(detail))")
        default:
            return VRenderError(.runtime, subject: device, reason: detail)
        }
    }
}
