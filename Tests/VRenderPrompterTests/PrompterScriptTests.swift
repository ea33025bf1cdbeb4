import Foundation
import Testing
import VRenderCore
import VRenderTestSupport
@testable import VRenderPrompter

/// Reading a `--prompter` script, and the capture's stand-in layout.
@Suite struct PrompterScriptTests {
    let directory = TestMedia.scratchDirectory()

    @Test func aUTF8FileIsReadAsIsLessItsByteOrderMark() throws {
        let path = directory + "/roteiro.txt"
        try Data("\u{FEFF}Olá! A gravação começa já.\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try PrompterScript(contentsOfFile: path) == PrompterScript(name: path, text: "Olá! A gravação começa já.\n"))
    }

    @Test func scriptsThatCannotBeShownAreErrorsNamingTheFile() throws {
        let latin1 = directory + "/latin1.txt"
        try Data([0x4F, 0x6C, 0xE1, 0x0A]).write(to: URL(fileURLWithPath: latin1))   // "Olá" in Latin-1
        let blank = directory + "/blank.txt"
        try " \n\t\n".write(toFile: blank, atomically: true, encoding: .utf8)
        let missing = directory + "/missing.txt"
        func error(_ path: String) -> VRenderError? {
            do { _ = try PrompterScript(contentsOfFile: path); return nil } catch { return error as? VRenderError }
        }
        #expect(error(latin1) == .input(latin1, "the prompter script is not UTF-8 text (byte 3 is not valid UTF-8)"))
        #expect(error(blank) == .input(blank, "the prompter script is empty: there is nothing to show"))
        #expect(error(missing)?.subject == missing)
        #expect(error(missing)?.reason.hasPrefix("cannot read the prompter script (") == true)
    }

    @Test func wrappingBreaksAtSpacesByCharactersNotBytes() {
        #expect(PrompterLayouts.wrap("Não há pressa: é só ler com atenção.", columns: 12)
            == ["Não há", "pressa: é só", "ler com", "atenção."])
        // Paragraphs stay apart, empty ones too; a word longer than a line is cut; the end's
        // empty lines go; tabs are spaces and control characters go.
        #expect(PrompterLayouts.wrap("um\r\n\ninconstitucionalíssimo\tfim\u{1B}[2J\n\n", columns: 8)
            == ["um", "", "inconsti", "tucional", "íssimo", "fim[2J"])
    }

    @Test func theCaptureLayoutFollowsThePictureAndTheFontSize() {
        let script = String(repeating: "Olá, ação! ", count: 100)
        let layout = PrompterLayouts.forCapture(script: script, frameWidth: 1920, frameHeight: 1080)
        let small = layout(18), large = layout(36)
        #expect(large.lines.count > small.lines.count)
        #expect(large.lineHeight > small.lineHeight)
        #expect(small.contentHeight >= Double(small.lines.count) * small.lineHeight + PrompterGeometry.fadeHeight - 1)
        // Points are a share of the picture: the same text wraps the same at any resolution.
        #expect(PrompterLayouts.forCapture(script: script, frameWidth: 640, frameHeight: 360)(18).lines == small.lines)
    }
}
