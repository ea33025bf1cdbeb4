import Foundation
import Testing
import VRenderCore
import VRenderExport
import VRenderMedia
import VRenderTestSupport
@testable import VRenderScale

/// The local engine's join trusts the takes its own process probed, never the plan's alone: a
/// plan whose probes were edited while the chunks rendered is refused before the output exists.
@Suite struct ChunkJoinTrustTests {
    let directory = TestMedia.scratchDirectory()

    @Test func theLocalJoinChecksThePlansProbesAgainstItsOwn() throws {
        let take = TestMedia.path("small_a.mov"), output = directory + "/t.mkv"
        var options = ExportOptions(inputs: [take], output: output)
        options.codec = .encode(.ffv1)
        let request = ChunkedExportRequest(options: options, engine: .local, sizing: .count(2), workDir: directory + "/w",
                                           executable: "")
        let (plan, folder) = try ChunkedExport(request: request, report: { _ in }).makePlan()
        let worker = ChunkWorker(folder: folder)
        // (Probes are counted per process, and tests run side by side: the CLI tests and the
        // bench gate hold workers to none.)
        for chunk in plan.chunks.indices { _ = try worker.render(chunk: chunk) }
        _ = try worker.renderSound()
        // As the planner probes it: numbered as the take it is (`ExportPlanner.probeInputs`).
        var probe = try Probe.probe(take)
        probe.sourceTake = 1
        let probed = [probe]

        var edited = plan
        edited.takes[0].video.colour = .bt601
        try folder.save(edited)
        let error = try #require(throws: VRenderError.self) {
            try worker.join(output: output, overwrite: false, probedHere: probed)
        }
        #expect("\(error)".contains("plan.json: its probe of take 1 (\(take)) is not what the take holds now (video differ"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: output))

        try folder.save(plan)
        let summary = try worker.join(output: output, overwrite: false, probedHere: probed)
        #expect(summary.frames == 30 && FileManager.default.fileExists(atPath: output))
    }
}
