#if canImport(Glibc)
import Glibc
#endif

extension ALSADevices {
    /// A USB webcam's own microphone: the ALSA card on the same USB device as the camera
    /// (`/dev/video0` → "alsa:hw:2,0"), or nil when the camera is not on USB or its device has
    /// no capture PCM. Reads only `sysfs` (a parameter so tests give it a fake tree):
    /// `class/video4linux/videoN/device` resolves to a USB interface ("1-2:1.0") whose parent
    /// folder is the USB device ("1-2"); a card is the camera's sibling when its
    /// `class/sound/cardN/device` resolves to an interface of that same USB device.
    package static func usbSibling(ofCamera camera: String, sysfs: String = "/sys") -> String? {
        let node = lastComponent(resolved(camera) ?? camera)
        guard let cameraInterface = resolved("\(sysfs)/class/video4linux/\(node)/device"),
              isUSBInterface(cameraInterface) else { return nil }
        let usbDevice = parent(cameraInterface)
        for card in cardNumbers(in: "\(sysfs)/class/sound") {
            guard let cardInterface = resolved("\(sysfs)/class/sound/card\(card)/device"),
                  isUSBInterface(cardInterface), parent(cardInterface) == usbDevice,
                  let pcm = firstCapturePCM(card: card, in: "\(sysfs)/class/sound/card\(card)") else { continue }
            return "\(ALSAMicrophone.prefix)hw:\(card),\(pcm)"
        }
        return nil
    }

    /// A USB interface's sysfs folder is named BUS-PORT[.PORT...]:CONFIG.INTERFACE ("1-2.4:1.0");
    /// the USB device above it has no colon, a PCI or platform device no such form.
    static func isUSBInterface(_ path: String) -> Bool {
        let name = lastComponent(path)
        guard let colon = name.firstIndex(of: ":") else { return false }
        let port = name[..<colon], interface = name[name.index(after: colon)...]
        return port.contains("-") && port.allSatisfy { $0.isNumber || $0 == "-" || $0 == "." }
            && !interface.isEmpty && interface.allSatisfy { $0.isNumber || $0 == "." }
    }

    /// N of every `cardN` entry, ascending.
    static func cardNumbers(in folder: String) -> [Int] {
        entries(of: folder).compactMap { $0.hasPrefix("card") ? Int($0.dropFirst(4)) : nil }.sorted()
    }

    /// D of the lowest `pcmC{card}D{D}c` entry (a capture PCM) in the card's folder.
    static func firstCapturePCM(card: Int, in folder: String) -> Int? {
        let prefix = "pcmC\(card)D"
        return entries(of: folder).compactMap { name -> Int? in
            guard name.hasPrefix(prefix), name.hasSuffix("c") else { return nil }
            return Int(name.dropFirst(prefix.count).dropLast())
        }.min()
    }

    private static func entries(of folder: String) -> [String] {
        guard let stream = opendir(folder) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The path with every symbolic link resolved (realpath), nil when it does not exist.
    private static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    private static func lastComponent(_ path: String) -> String {
        String(path.split(separator: "/").last ?? "")
    }

    private static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }
}
