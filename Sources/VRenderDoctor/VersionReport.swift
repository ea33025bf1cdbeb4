internal import CBuildInfo
import VRenderImaging
import VRenderMedia
import VRenderVulkan

/// What `vrender --version` prints: vrender's version and commit, and the versions of the
/// libraries this process runs with (which a Debian upgrade can change under the same binary).
package struct VersionReport: Sendable, Encodable {
    /// "0.9.0+git440.8bcc9b6", from VERSION and git when the build ran (scripts/build-info.sh).
    package var vrender: String
    /// The full commit hash, or nil for a build made without scripts/build-info.sh.
    package var commit: String?
    package var ffmpeg: String
    package var ffmpegLibraries: String
    package var vulkanLoader: String
    package var freeType: String?

    /// vrender's version alone: cheap (no library is asked), for ArgumentParser's `version`.
    package static var buildVersion: String {
        let version = String(cString: vrender_build_version())
        return version.isEmpty ? "unknown (built without scripts/build-info.sh, which make runs)" : version
    }

    /// Asks FFmpeg, the Vulkan loader (no driver is loaded) and FreeType for their versions.
    package static func current() -> VersionReport {
        let commit = String(cString: vrender_build_commit())
        return VersionReport(vrender: buildVersion, commit: commit.isEmpty ? nil : commit,
                             ffmpeg: FFmpegLibraries.release, ffmpegLibraries: FFmpegLibraries.libraryVersions,
                             vulkanLoader: VulkanDevices.loaderVersion(), freeType: TextFont.freeTypeVersion())
    }

    /// The lines `--version` prints.
    package var text: String {
        """
        vrender \(vrender)
        commit \(commit ?? "unknown")
        FFmpeg \(ffmpeg) (\(ffmpegLibraries))
        Vulkan loader \(vulkanLoader)
        FreeType \(freeType ?? "cannot be started")
        """
    }
}
