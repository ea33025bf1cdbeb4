import Foundation
import Testing
import VRenderCore
import VRenderExport
import VRenderFilters
import VRenderPrompter
import VRenderTestSupport
@testable import VRenderScale

@Suite("The export a chunk plan keeps")
struct ExportRecipeTests {
    let directory = TestMedia.scratchDirectory()

    /// What a worker plans from must be what the user asked: every option survives the file.
    @Test func optionsSurviveThePlanFile() throws {
        let script = directory + "/script.txt"
        try "Line one\nLine two\n".write(toFile: script, atomically: true, encoding: .utf8)
        var options = ExportOptions(inputs: ["relative.mov"], output: "out.mkv", audioTrack: 2,
                                    filter: try FilterRegistry.chain("mono=strength=60,noir"), codec: .encode(.h264),
                                    crf: 20, preset: "fast", size: (640, 360), frameRate: Rational(30000, 1001),
                                    overwrite: true, filterThreads: 3, gpu: .cpu)
        options.prompter = PrompterOverlayRequest(script: try PrompterScript(contentsOfFile: script),
                                                  settings: .init(), box: PixelRect(x: 10, y: 20, width: 300, height: 200))
        options.loudness = -16
        let recipe = try ExportRecipe(options: options, inputs: ["takes/a.mov", "/abs/b.mov"])
        let cwd = FileManager.default.currentDirectoryPath
        #expect(recipe.inputs == [cwd + "/takes/a.mov", "/abs/b.mov"], "paths become absolute")
        #expect(recipe.output == cwd + "/out.mkv")
        let decoded = try JSONDecoder().decode(ExportRecipe.self, from: try JSONEncoder().encode(recipe))
        #expect(decoded == recipe)
        let back = try decoded.options()
        #expect(back.filter.specification == "mono=strength=60,noir")
        #expect(back.codec == .encode(.h264) && back.crf == 20 && back.preset == "fast" && back.audioTrack == 2)
        #expect(back.size?.width == 640 && back.size?.height == 360 && back.frameRate == Rational(30000, 1001))
        #expect(back.overwrite && back.filterThreads == 3 && back.gpu == .cpu && back.loudness == -16)
        #expect(back.prompter?.script.text == "Line one\nLine two\n" && back.prompter?.box == PixelRect(x: 10, y: 20, width: 300, height: 200))
        #expect(recipe.files.last == script)
    }

    /// ExportOptions' default filter (no chain at all) was written as "", which the plan's
    /// check refuses: a chunked export made through the library failed in its first worker.
    @Test func theDefaultFilterIsWrittenAsNone() throws {
        let recipe = try ExportRecipe(options: ExportOptions(inputs: ["a.mov"], output: "out.mkv"), inputs: ["a.mov"])
        #expect(recipe.filter == "none")
        try recipe.validate(FieldCheck(file: "plan.json"))
    }

    @Test func aCopyIsNeverChunked() {
        let options = ExportOptions(inputs: ["a.mov"], output: "out.mov", codec: .copy)
        #expect(throws: VRenderError.self) { try ExportRecipe(options: options, inputs: ["a.mov"]) }
    }

    @Test func aStampNoticesAChangedFile() throws {
        let file = directory + "/take.mov"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: file))
        let stamp = try InputStamp(path: file)
        try stamp.checkUnchanged(planPath: "plan.json")
        try Data([1, 2, 3, 4]).write(to: URL(fileURLWithPath: file))
        #expect(throws: VRenderError.self) { try stamp.checkUnchanged(planPath: "plan.json") }
        try FileManager.default.removeItem(atPath: file)
        #expect(throws: VRenderError.self) { try stamp.checkUnchanged(planPath: "plan.json") }
    }
}
