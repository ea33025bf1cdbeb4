import Foundation
import VRenderCapture
import VRenderCore
import VRenderFilters
import VRenderImaging
import VRenderMedia
import VRenderVulkan

/// `vrender doctor`: what this machine can do and what to install for the rest. Every check
/// only asks (a library, the Vulkan loader, device nodes, PATH, the file system): nothing is
/// recorded, written or changed.
package enum Doctor {
    /// Where to look: the takes folder whose free space counts, and the folder of video nodes.
    package struct Places: Sendable {
        package var takes: String
        package var devices: String

        package init(takes: String = ".", devices: String = "/dev") {
            self.takes = takes
            self.devices = devices
        }
    }

    package static func examine(_ places: Places = Places()) -> DoctorReport {
        var findings = [ffmpeg()] + encoders() + [cpu()]
        findings += vulkan() + cameras(in: places.devices) + audio()
        findings += [slurm()] + fonts() + [disk(at: places.takes)]
        return DoctorReport(version: VersionReport.buildVersion, findings: findings)
    }

    static func ffmpeg() -> DoctorFinding {
        DoctorFinding(area: "FFmpeg", name: FFmpegLibraries.release, status: .ok,
                      detail: FFmpegLibraries.libraryVersions, isCore: true)
    }

    static func cpu() -> DoctorFinding {
        return DoctorFinding(area: "CPU", name: "\(Processors.active) processors", status: .ok,
                             detail: "filters and tone mapping on the CPU run the \(RowInstructions.summary) row kernels")
    }

    static func slurm() -> DoctorFinding {
        let missing = SlurmCommands.missing()
        guard !missing.isEmpty else {
            let folder = SlurmCommands.find("sbatch").map { ($0 as NSString).deletingLastPathComponent } ?? "PATH"
            return DoctorFinding(area: "Slurm", name: "sbatch", status: .ok,
                                 detail: "\(SlurmCommands.names.joined(separator: ", ")) in \(folder): concat --engine slurm")
        }
        return DoctorFinding(area: "Slurm", name: missing.joined(separator: ", "), status: .missing,
                             detail: "not on PATH: concat --engine slurm runs where Slurm's commands are; --engine local works here",
                             fix: "on a cluster's login node, or install slurm-client")
    }

    static func fonts() -> [DoctorFinding] {
        [(FontFile.dejaVuSansBold, "the prompter's text"),
         (FontFile.wenQuanYiMicroHei, "Chinese, Japanese and Korean prompter text")].map { font, use in
            DoctorFinding(area: "font", name: (font.path as NSString).lastPathComponent,
                          status: font.isInstalled ? .ok : .missing, detail: use,
                          fix: font.isInstalled ? nil : "install \(font.package)")
        }
    }
}
