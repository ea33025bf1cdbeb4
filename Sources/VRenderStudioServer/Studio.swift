import Foundation
import Synchronization
import VRenderCore
import VRenderStudio

/// `vrender studio`: the server, then the session behind it. The one entry point the CLI calls.
///
/// The server binds first, so a port in use (a second studio) is refused before the camera
/// opens; then the session opens the camera and the page shows it. `run` blocks until `stop`.
package final class Studio: Sendable {
    package let options: StudioOptions
    package let host: String
    package let port: Int
    /// The token every request must carry when the server listens beyond loopback (nil on
    /// loopback, where only this machine's users reach it).
    package let token: String?
    private let openBrowser: Bool
    private let terminal: StudioSession.Terminal
    private let session: StudioSession
    private let serving = Mutex<Task<Void, Never>?>(nil)
    private let stopped = StopSignal()

    package static let defaultPort = 8750

    /// Throws when the preview's encoder does not open.
    package init(options: StudioOptions, host: String = "127.0.0.1", port: Int = Studio.defaultPort, openBrowser: Bool = false,
                terminal: @escaping StudioSession.Terminal = { _, _ in }) throws {
        self.options = options
        self.host = host
        self.port = port
        self.openBrowser = openBrowser
        self.terminal = terminal
        token = RequestGuard.isLoopback(host) ? nil : StudioServer.randomToken()   // the server's own rule
        session = try StudioSession(options: options, terminal: terminal)
    }

    /// Serves until `stop()`; `onListening` gets the page's URL (with the token) once the port
    /// is bound. Throws when the server cannot listen (the port is taken, the address is not
    /// this machine's), naming the address.
    package func run(onListening: @escaping @Sendable (String) -> Void) throws {
        let server = StudioServer(backend: session, host: host, port: port, token: token)
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<(any Error)?>(nil)
        let handoff = Mutex<BrowserHandoff?>(nil)
        let session = self.session, openBrowser = self.openBrowser, terminal = self.terminal
        let task = Task {
            do {
                try await server.run { address in
                    onListening(address.url)
                    session.start()
                    if openBrowser { handoff.withLock { $0 = Self.openInBrowser(address.localURL, terminal: terminal) } }
                }
            } catch {
                outcome.withLock { $0 = error }
            }
            done.signal()
        }
        serving.withLock { $0 = task }
        if stopped.isRaised { task.cancel() }
        done.wait()
        // The take first: nothing the server did or failed to do keeps it from being finished.
        session.stop()
        handoff.withLock { $0 }?.remove()
        if let error = outcome.withLock({ $0 }), !stopped.isRaised || !(error is CancellationError) { throw error }
    }

    /// Ends the studio from any thread (Ctrl-C): the take in progress is finished and kept.
    package func stop() {
        stopped.raise()
        serving.withLock { $0 }?.cancel()
    }

    /// The desktop's browser, given a private page that leads to `url` (`BrowserHandoff`); a
    /// page that cannot be written is said, and the printed URL still works.
    private static func openInBrowser(_ url: String, terminal: StudioSession.Terminal) -> BrowserHandoff? {
        do {
            let handoff = try BrowserHandoff(url: url)
            handoff.open()
            return handoff
        } catch {
            terminal("--open: \(error) (open the printed URL yourself)", true)
            return nil
        }
    }
}
