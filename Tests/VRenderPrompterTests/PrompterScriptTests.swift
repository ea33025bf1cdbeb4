import Foundation
import Testing
import VRenderCore
import VRenderTestSupport
import VRenderImaging
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

    @Test func scriptsAreCleanedForShowing() throws {
        // Windows and old Mac line ends are newlines; tabs are spaces; control characters go, so
        // none moves a terminal's cursor or reaches the font as a missing glyph.
        #expect(PrompterScript.cleaned("\u{FEFF}um\r\n\nação\tfim\u{1B}[2J\rok") == "um\n\nação fim[2J\nok")
        let folder = directory + "/folder.txt"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(throws: VRenderError.input(folder, "the prompter script is not a file (it should be UTF-8 text)")) {
            try PrompterScript(contentsOfFile: folder)
        }
        // A FIFO is refused through the descriptor opened without waiting (this returns at all).
        let fifo = directory + "/fifo.txt"
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(throws: VRenderError.input(fifo, "the prompter script is not a file (it should be UTF-8 text)")) {
            try PrompterScript(contentsOfFile: fifo)
        }
        let huge = directory + "/huge.txt"
        try Data(repeating: 0x41, count: PrompterScript.maximumBytes + 1).write(to: URL(fileURLWithPath: huge))
        #expect(throws: VRenderError.input(huge, "the prompter script is 1048577 bytes; a script is at most 1 MiB of text")) {
            try PrompterScript(contentsOfFile: huge)
        }
    }

    @Test func theCaptureLayoutIsTheOverlaysFreeTypeLayout() throws {
        let script = PrompterScript(name: "s.txt", text: String(repeating: "Olá, ação! ", count: 100))
        let settings = PrompterSettings(speed: 24, fontSize: 18, ending: .pause)
        let session = try PrompterSession.captureFactory(script: script, settings: settings)(1920, 1080)
        let small = session.text
        let geometry = PrompterGeometry(pictureWidth: 1920, pictureHeight: 1080)
        let font = try TextFont()
        // The terminal's lines are the lines an export of this size draws.
        let drawn = geometry.layout(script.text, fontSize: 18, font: font)
        #expect(small.lines == drawn.lines.map(\.text))
        let large = geometry.prompterText(geometry.layout(script.text, fontSize: 36, font: font))
        #expect(large.lines.count > small.lines.count && large.lineHeight > small.lineHeight)
        #expect(abs(small.contentHeight - (Double(small.lines.count) * small.lineHeight + PrompterGeometry.fadeHeight)) < 1e-6)
        // Points are a share of the picture: the same text wraps alike at another resolution
        // (within a line: hinting rounds each size's advances its own way).
        let smaller = try PrompterSession.captureFactory(script: script, settings: settings)(640, 360).text
        #expect(abs(smaller.lines.count - small.lines.count) <= 1)
    }
}
