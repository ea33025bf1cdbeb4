/// One line of `vrender doctor`: a thing vrender can use, whether this machine has it, and what
/// to install or do when it does not.
package struct DoctorFinding: Sendable, Encodable, Equatable {
    package enum Status: String, Sendable, Encodable {
        /// Here and usable.
        case ok
        /// Not installed (a library, an encoder, a font, a command): `fix` says what to install.
        case missing
        /// No such device on this machine (a camera, a GPU, a sound server): not an error.
        case none
        /// Here but not usable as it is (a camera without permission, a nearly full disk).
        case problem
    }

    /// What the line is about: "encoder", "Vulkan", "V4L2", "audio", "Slurm", "font", "disk", ...
    package var area: String
    /// The thing itself: "x265", "llvmpipe (LLVM 15.0.6, 256 bits)", "/dev/video0".
    package var name: String
    package var status: Status
    /// What it is for, or what was found.
    package var detail: String
    /// What to install or do, when the status is not ok.
    package var fix: String?
    /// True for what every recording and export needs: the whole report fails without it.
    package var isCore: Bool

    package init(area: String, name: String, status: Status, detail: String, fix: String? = nil, isCore: Bool = false) {
        self.area = area
        self.name = name
        self.status = status
        self.detail = detail
        self.fix = fix
        self.isCore = isCore
    }

    /// A core finding that is not ok: recording and exporting cannot work.
    package var failsCore: Bool { isCore && status != .ok }
}

/// Everything `vrender doctor` found, in the order it prints.
package struct DoctorReport: Sendable, Encodable {
    package var version: String
    package var findings: [DoctorFinding]

    /// The core findings that are not ok: an empty list means recording and exporting work.
    package var coreFailures: [DoctorFinding] {
        findings.filter(\.failsCore)
    }

    /// True when recording with the synthetic camera and exporting work on this machine.
    package var coreWorks: Bool { coreFailures.isEmpty }
}
