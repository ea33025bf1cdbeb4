import ArgumentParser
import Foundation
import VRenderCore
import VRenderDoctor
import VRenderWorkerCommands

extension VRender {
    /// `vrender doctor`: what this machine can do, one line each, and what to install for the rest.
    struct Doctor: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check what this machine can do (encoders, Vulkan, cameras, sound, Slurm, fonts, disk) "
                + "and what to install for the rest.",
            discussion: "Exit status 0 when recording and exporting work (FFmpeg with an H.264 or HEVC encoder "
                + "and AAC), 1 otherwise. Only asks: nothing is recorded, written or changed.")

        @Option(help: ArgumentHelp("The folder takes go to, whose free space is checked.", valueName: "dir"))
        var takes = "."

        @Option(help: ArgumentHelp("Folder to look for video nodes in.", valueName: "dir"))
        var dev = "/dev"

        @Flag(help: "Print the findings as JSON.")
        var json = false

        func run() throws {
            let report = VRenderDoctor.Doctor.examine(.init(takes: takes, devices: dev))
            if json {
                try JSONOutput.print(report)
            } else {
                print(DoctorTable.text(report))
            }
            guard report.coreWorks else {
                let names = report.coreFailures.map { "\($0.area) \($0.name)" }.joined(separator: ", ")
                throw VRenderError(.runtime, subject: "doctor", reason: "recording and exporting cannot work here: \(names) missing")
            }
        }
    }
}
