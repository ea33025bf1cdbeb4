import Foundation
import Testing
@testable import VRenderCapture

/// Finding a USB webcam's own microphone in a fake sysfs tree laid out as the kernel's.
@Suite struct ALSAUSBSiblingTests {
    /// A temporary sysfs: `devices/...` folders and the `class/...` links into them.
    final class FakeSysfs {
        let root: String
        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("vrender-sysfs-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// `class/video4linux/videoN/device` → `devices/<device>`.
        func camera(_ node: String, at device: String) throws {
            try link("class/video4linux/\(node)", to: device)
        }

        /// `class/sound/cardN/device` → `devices/<device>`, with capture PCMs `pcmCNDdc`
        /// (and a playback one, which must be ignored).
        func card(_ number: Int, at device: String, capturePCMs: [Int]) throws {
            try link("class/sound/card\(number)", to: device)
            for pcm in capturePCMs {
                try FileManager.default.createDirectory(atPath: "\(root)/class/sound/card\(number)/pcmC\(number)D\(pcm)c",
                                                        withIntermediateDirectories: true)
            }
            try FileManager.default.createDirectory(atPath: "\(root)/class/sound/card\(number)/pcmC\(number)D0p",
                                                    withIntermediateDirectories: true)
        }

        private func link(_ classEntry: String, to device: String) throws {
            let target = "\(root)/devices/\(device)"
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: "\(root)/\(classEntry)", withIntermediateDirectories: true)
            // Relative, as the kernel's links are.
            let depth = classEntry.split(separator: "/").count
            let relative = String(repeating: "../", count: depth) + "devices/\(device)"
            try FileManager.default.createSymbolicLink(atPath: "\(root)/\(classEntry)/device", withDestinationPath: relative)
        }
    }

    static let usbBus = "pci0000:00/0000:00:14.0/usb1"

    @Test func findsTheCardOnTheCamerasUSBDevice() throws {
        let sysfs = try FakeSysfs()
        // Card 0 is the onboard codec (PCI); card 1 a USB headset; card 2 the webcam's microphone.
        try sysfs.card(0, at: "pci0000:00/0000:00:1f.3", capturePCMs: [0])
        try sysfs.card(1, at: "\(Self.usbBus)/1-3/1-3:1.0", capturePCMs: [0])
        try sysfs.card(2, at: "\(Self.usbBus)/1-2/1-2:1.3", capturePCMs: [0])
        try sysfs.camera("video0", at: "\(Self.usbBus)/1-2/1-2:1.0")
        #expect(ALSADevices.usbSibling(ofCamera: "/dev/video0", sysfs: sysfs.root) == "alsa:hw:2,0")
    }

    @Test func eachOfTwoWebcamsGetsItsOwnMicrophoneBehindAHub() throws {
        let sysfs = try FakeSysfs()
        try sysfs.camera("video0", at: "\(Self.usbBus)/1-4/1-4.1/1-4.1:1.0")
        try sysfs.camera("video2", at: "\(Self.usbBus)/1-4/1-4.2/1-4.2:1.0")
        try sysfs.card(1, at: "\(Self.usbBus)/1-4/1-4.2/1-4.2:1.2", capturePCMs: [0])
        try sysfs.card(3, at: "\(Self.usbBus)/1-4/1-4.1/1-4.1:1.2", capturePCMs: [1, 0])
        #expect(ALSADevices.usbSibling(ofCamera: "/dev/video0", sysfs: sysfs.root) == "alsa:hw:3,0")
        #expect(ALSADevices.usbSibling(ofCamera: "/dev/video2", sysfs: sysfs.root) == "alsa:hw:1,0")
    }

    @Test func noneForACameraWithoutMicrophoneOrNotOnUSB() throws {
        let sysfs = try FakeSysfs()
        try sysfs.card(0, at: "pci0000:00/0000:00:1f.3", capturePCMs: [0])
        // A USB camera whose device has no sound card, and a card there with playback only.
        try sysfs.camera("video0", at: "\(Self.usbBus)/1-2/1-2:1.0")
        try sysfs.card(1, at: "\(Self.usbBus)/1-2/1-2:1.3", capturePCMs: [])
        #expect(ALSADevices.usbSibling(ofCamera: "/dev/video0", sysfs: sysfs.root) == nil)
        // vivid: a platform device, as a PCI capture card would be.
        try sysfs.camera("video1", at: "platform/vivid.0")
        #expect(ALSADevices.usbSibling(ofCamera: "/dev/video1", sysfs: sysfs.root) == nil)
        // No such node at all.
        #expect(ALSADevices.usbSibling(ofCamera: "/dev/video9", sysfs: sysfs.root) == nil)
    }

    @Test func recognisesUSBInterfaceFolders() {
        #expect(ALSADevices.isUSBInterface("/sys/devices/x/usb1/1-2/1-2:1.0"))
        #expect(ALSADevices.isUSBInterface("/sys/devices/x/usb3/3-4.1.2/3-4.1.2:1.3"))
        #expect(!ALSADevices.isUSBInterface("/sys/devices/x/usb1/1-2"))
        #expect(!ALSADevices.isUSBInterface("/sys/devices/pci0000:00/0000:00:1f.3"))
        #expect(!ALSADevices.isUSBInterface("/sys/devices/platform/vivid.0"))
    }
}
