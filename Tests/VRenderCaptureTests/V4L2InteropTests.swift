import Foundation
import Testing
import CV4L2
import VRenderCore
@testable import VRenderCapture

/// The C shim agrees with Swift's view of the V4L2 structs, and device errors say what is wrong.
@Suite struct V4L2InteropTests {
    /// The request codes encode struct sizes: if Swift's imported layout differed from C's, every
    /// ioctl would pass the wrong size and fail with ENOTTY.
    @Test func structSizesMatchC() {
        let swiftSizes: [(vr_v4l2_struct, Int, String)] = [
            (VR_V4L2_STRUCT_CAPABILITY, MemoryLayout<v4l2_capability>.size, "v4l2_capability"),
            (VR_V4L2_STRUCT_FMTDESC, MemoryLayout<v4l2_fmtdesc>.size, "v4l2_fmtdesc"),
            (VR_V4L2_STRUCT_FRMSIZEENUM, MemoryLayout<v4l2_frmsizeenum>.size, "v4l2_frmsizeenum"),
            (VR_V4L2_STRUCT_FRMIVALENUM, MemoryLayout<v4l2_frmivalenum>.size, "v4l2_frmivalenum"),
            (VR_V4L2_STRUCT_FORMAT, MemoryLayout<v4l2_format>.size, "v4l2_format"),
            (VR_V4L2_STRUCT_STREAMPARM, MemoryLayout<v4l2_streamparm>.size, "v4l2_streamparm"),
            (VR_V4L2_STRUCT_REQUESTBUFFERS, MemoryLayout<v4l2_requestbuffers>.size, "v4l2_requestbuffers"),
            (VR_V4L2_STRUCT_BUFFER, MemoryLayout<v4l2_buffer>.size, "v4l2_buffer"),
            (VR_V4L2_STRUCT_QUERYCTRL, MemoryLayout<v4l2_queryctrl>.size, "v4l2_queryctrl"),
            (VR_V4L2_STRUCT_CONTROL, MemoryLayout<v4l2_control>.size, "v4l2_control"),
            (VR_V4L2_STRUCT_INPUT, MemoryLayout<v4l2_input>.size, "v4l2_input"),
        ]
        #expect(swiftSizes.count == Int(VR_V4L2_STRUCT_COUNT.rawValue))
        for (which, swiftSize, name) in swiftSizes {
            #expect(vr_v4l2_sizeof(which) == swiftSize, "\(name)")
        }
        #expect(vr_v4l2_sizeof(VR_V4L2_STRUCT_COUNT) == 0)
    }

    #if arch(x86_64)
    @Test func requestCodesAreTheKernelsOnX86_64() {
        #expect(VR_VIDIOC_QUERYCAP == 0x8068_5600)
        #expect(VR_VIDIOC_ENUM_FMT == 0xc040_5602)
        #expect(VR_VIDIOC_S_FMT == 0xc0d0_5605)
        #expect(VR_VIDIOC_S_PARM == 0xc0cc_5616)
        #expect(VR_VIDIOC_REQBUFS == 0xc014_5608)
        #expect(VR_VIDIOC_QBUF == 0xc058_560f)
        #expect(VR_VIDIOC_DQBUF == 0xc058_5611)
        #expect(VR_VIDIOC_STREAMON == 0x4004_5612)
        #expect(VR_VIDIOC_STREAMOFF == 0x4004_5613)
        #expect(VR_VIDIOC_S_CTRL == 0xc008_561c)
        #expect(VR_VIDIOC_ENUMINPUT == 0xc050_561a)
    }
    #endif

    @Test func fourccsSpellTheirNames() {
        #expect(fourccName(VR_V4L2_PIX_FMT_YUYV) == "YUYV")
        #expect(fourccName(VR_V4L2_PIX_FMT_NV12) == "NV12")
        #expect(fourccName(VR_V4L2_PIX_FMT_YUV420) == "YU12")
        #expect(fourccName(VR_V4L2_PIX_FMT_MJPEG) == "MJPG")
        #expect(fourccName(VR_V4L2_PIX_FMT_JPEG) == "JPEG")
        #expect(CapturePixelFormat(fourcc: VR_V4L2_PIX_FMT_JPEG) == .mjpeg)
        #expect(CapturePixelFormat(fourcc: VR_V4L2_PIX_FMT_YUV420) == .yuv420p)
        #expect(CapturePixelFormat(fourcc: 0x3231_5659) == nil)  // YV12: not read
        #expect(VR_V4L2_CID_ZOOM_ABSOLUTE == 0x009a_090d)
    }

    @Test func aMissingNodeIsAnInputErrorNamingIt() {
        #expect(throws: VRenderError.input("/dev/video-vrender-missing", "no such device")) {
            try V4L2Camera(path: "/dev/video-vrender-missing", request: CaptureRequest())
        }
    }

    @Test func aNodeThatIsNotV4L2IsRejectedClearly() {
        #expect {
            try V4L2Camera(path: "/dev/null", request: CaptureRequest())
        } throws: { error in
            guard let error = error as? VRenderError else { return false }
            return error.kind == .input && error.subject == "/dev/null"
                && error.reason.hasPrefix("not a V4L2 device (VIDIOC_QUERYCAP: ")
        }
    }

    /// `--device` must be a character device: a file, a FIFO (opened non-blocking, so no hang
    /// without a writer) or a folder is refused by what it is, before any ioctl reaches it.
    @Test func aFileAPipeOrAFolderIsNotACamera() throws {
        let folder = NSTemporaryDirectory() + "vrender-v4l2-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(FileManager.default.createFile(atPath: folder + "/video0", contents: Data("not a camera".utf8)))
        #expect(mkfifo(folder + "/fifo", 0o600) == 0)
        for (path, why) in [(folder + "/video0", "not a V4L2 device: not a character device"),
                            (folder + "/fifo", "not a V4L2 device: not a character device"), (folder, "is a folder")] {
            #expect {
                try V4L2Camera(path: path, request: CaptureRequest())
            } throws: { error in
                guard let error = error as? VRenderError else { return false }
                return error.kind == .input && error.subject == path && error.reason.hasPrefix(why)
            }
        }
        #expect(try String(contentsOfFile: folder + "/video0", encoding: .utf8) == "not a camera")
    }

    @Test func errnoBecomesAnErrorThatSaysWhatToDo() {
        let busy = V4L2Error(call: "VIDIOC_S_FMT", code: EBUSY, device: "/dev/video0")
        #expect(busy.userError.kind == .input)
        #expect(busy.userError.reason.contains("another program is using the camera"))
        #expect(busy.description == "/dev/video0: VIDIOC_S_FMT: Device or resource busy (errno \(EBUSY))")
        let denied = V4L2Error(call: "open", code: EACCES, device: "/dev/video0").userError
        #expect(denied.reason.contains("'video' group"))
        let gone = V4L2Error(call: "VIDIOC_DQBUF", code: ENODEV, device: "/dev/video0")
        #expect(gone.isDeviceGone)
        #expect(!busy.isDeviceGone)
        #expect(V4L2Error(call: "VIDIOC_QBUF", code: EINVAL, device: "/dev/video0").userError.kind == .runtime)
    }

    @Test func discoveryListsVideoNodesInNumericOrderAndSkipsNonV4L2Files() throws {
        let directory = NSTemporaryDirectory() + "vrender-v4l2-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for name in ["video10", "video2", "video0", "videofoo", "vbi0"] {
            _ = FileManager.default.createFile(atPath: directory + "/" + name, contents: Data())
        }
        #expect(V4L2Discovery.videoNodes(in: directory) == ["video0", "video2", "video10"].map { directory + "/" + $0 })
        // Regular files open but answer VIDIOC_QUERYCAP with ENOTTY: not cameras.
        #expect(V4L2Discovery.devices(in: directory).isEmpty)
        #expect(V4L2Discovery.devices(in: directory + "/missing").isEmpty)
    }

    @Test func deviceInfoEncodesWithoutAnAbsentProblem() throws {
        let info = V4L2DeviceInfo(path: "/dev/video0", card: "vivid", driver: "vivid", busInfo: "platform:vivid-000",
                                  formats: [CaptureFormat(pixelFormat: .yuyv, width: 640, height: 480, frameRates: [Rational(25, 1)])],
                                  controls: ["Brightness"])
        let json = String(decoding: try JSONEncoder().encode(info), as: UTF8.self)
        #expect(!json.contains("problem"))
        #expect(try JSONDecoder().decode(V4L2DeviceInfo.self, from: Data(json.utf8)) == info)
    }
}

/// Zoom arithmetic of the V4L2 camera, without a device.
@Suite struct V4L2ZoomTests {
    @Test func digitalZoomCropsTheCentre() {
        var state = ControlState()
        #expect(state.digitalCrop(width: 640, height: 480) == nil)
        state.zoom = 2
        #expect(state.digitalCrop(width: 640, height: 480) == PixelRect(x: 160, y: 120, width: 320, height: 240))
        state.zoom = 6
        #expect(state.digitalCrop(width: 640, height: 480) == PixelRect(x: 266, y: 200, width: 106, height: 80))
        #expect(state.zoomRange == 1...6)
    }

    @Test func aZoomControlMapsFactorsToItsRange() {
        var state = ControlState()
        // UVC-style focal length: 100 is 1x, 500 is 5x.
        state.zoomControl = V4L2ControlInfo(id: 0, name: "Zoom, Absolute", type: 1, minimum: 100, maximum: 500,
                                            step: 1, defaultValue: 100, flags: 0)
        #expect(state.zoomRange == 1...5)
        #expect(state.controlValue(forZoom: 2) == 200)
        #expect(state.zoom(forControlValue: 250) == 2.5)
        #expect(state.digitalCrop(width: 640, height: 480) == nil)  // the device zooms itself
        // A range from 0 has no focal-length meaning: spread over 1...6.
        state.zoomControl = V4L2ControlInfo(id: 0, name: "Zoom, Absolute", type: 1, minimum: 0, maximum: 10,
                                            step: 1, defaultValue: 0, flags: 0)
        #expect(state.controlValue(forZoom: 6) == 10)
        #expect(state.controlValue(forZoom: 3.5) == 5)
        #expect(state.zoom(forControlValue: 0) == 1)
    }

    @Test func aRampDoublesAtItsRateAndStopsAtItsTarget() {
        let ramp = ZoomRamp(from: 1, to: 4, rate: 2, start: 1)
        #expect(ramp.factor(at: 0.5).factor == 1)
        #expect(abs(ramp.factor(at: 1.5).factor - 2) < 1e-9)
        #expect(ramp.factor(at: 2).factor == 4)
        #expect(ramp.factor(at: 2).done)
        let down = ZoomRamp(from: 4, to: 1, rate: 1, start: 0)
        #expect(abs(down.factor(at: 1).factor - 2) < 1e-9)
        #expect(down.factor(at: 3).factor == 1)
        #expect(down.factor(at: 3).done)
    }
}
