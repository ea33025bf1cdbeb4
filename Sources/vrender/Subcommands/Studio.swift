import ArgumentParser
import Foundation
import VRenderCapture
import VRenderCore
import VRenderPrompter
import VRenderRecording
import VRenderStudio
import VRenderStudioServer
import VRenderWorkerCommands

extension VRender {
    /// `vrender studio`: the app's screen in a browser.
    struct Studio: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record takes from a page in your browser: live preview, prompter, take strip, export.",
            discussion: """
                Serves one page on http://127.0.0.1:PORT/ (printed as 'studio: URL'): the camera's \
                picture with the filter chosen, the grid, lens 0.5x/1x/2x, zoom, torch, front/back, \
                click to set the exposure point; record/stop (or the space bar); the prompter in a box \
                you drag and resize; the takes (play, delete, reorder: the order written to \
                takes.json); and the export, with the filter preview grid and a progress bar. Takes go \
                to DIR as with 'vrender capture', playable copies into DIR/proxies/, exports into \
                DIR/exports/. Any number of pages may watch; a change on one shows on all.

                Only this machine can reach the page unless --host names another address; then the \
                printed URL carries a random token that every request needs (--host 0.0.0.0: the URL \
                names the machine). --open hands the browser a private page that leads to the URL, \
                never the URL itself on a command line. Ctrl-C ends the studio: a take in progress is \
                finished and kept.
                """)

        @OptionGroup var camera: CameraArguments

        @Option(help: ArgumentHelp("Address to listen on (default 127.0.0.1; any other needs the printed token).", valueName: "addr"))
        var host = "127.0.0.1"

        @Option(help: ArgumentHelp("Port to listen on (default 8750; 0: any free port).", valueName: "n"))
        var port = VRenderStudioServer.Studio.defaultPort

        @Flag(help: "Open the page in the desktop's browser (xdg-open, given a private page that leads to it).")
        var open = false

        func validate() throws {
            if !(0...65535).contains(port) { throw ValidationError("--port \(port) is not a port (0-65535)") }
        }

        func run() throws {
            let request = CaptureRequest(frameRate: camera.fps.rate, size: camera.size?.value)
            let clamped = camera.prompterSettings.settings
            let script = try camera.prompter.map { (script: try PrompterScript(contentsOfFile: $0), settings: clamped.settings) }
            let options = try StudioOptions(device: camera.device, request: request, folder: camera.out, codec: camera.codec.choice,
                                            audio: camera.audio, prompter: script, voice: camera.voice)
            if script != nil { for notice in clamped.notices { Warnings.print(notice) } }
            let studio = try VRenderStudioServer.Studio(options: options, host: host, port: port, openBrowser: open) { line, isError in
                // Broken at spaces to the terminal's width, as every other command's lines (the
                // terminal itself once broke the codec notice inside a number).
                let text = TerminalText.fitted((isError ? "vrender: error: " : "") + line, for: STDERR_FILENO)
                FileHandle.standardError.write(Data((text + "\n").utf8))
            }
            let interrupts = InterruptHandling.install { studio.stop() }
            defer { withExtendedLifetime(interrupts) {} }
            try studio.run { url in
                FileHandle.standardOutput.write(Data("studio: \(url)\n".utf8))   // unbuffered: scripts read it at once
            }
            if InterruptHandling.wasInterrupted { throw ExitCode(130) }
        }
    }
}
