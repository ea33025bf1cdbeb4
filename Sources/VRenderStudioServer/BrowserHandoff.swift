import Foundation
import Glibc
import VRenderCore

/// `--open` without the token on a command line (issue 37 item 9): `xdg-open URL` showed the
/// URL, token and all, to every local user's `ps`. The browser is handed a file instead: a page
/// that sends it on to the URL, readable by this user alone (0600, in a 0700 folder made for
/// it), removed when the studio ends.
final class BrowserHandoff: Sendable {
    static let pageName = "open-studio.html"

    /// The page the browser is given.
    let page: String
    /// The folder above the private one, which removes it (link-safe) when the studio ends.
    private let parent: FolderHandle
    private let folderName: String

    /// Writes the page for `url` in a new private folder under `temporary` (TMPDIR or /tmp).
    init(url: String, temporary: String = BrowserHandoff.temporaryFolder()) throws {
        var template = Array((temporary + "/vrender-studio-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw VRenderError.output(temporary, SystemError.last.reason("cannot create a private folder for the browser's page"))
        }
        let path = String(cString: made)
        parent = try FolderHandle.open(temporary, as: .output)
        folderName = (path as NSString).lastPathComponent
        let folder = try parent.folder(folderName, as: .output)
        let file = AtomicFile(in: folder, name: Self.pageName)
        do {
            guard fchmod(try file.open(), 0o600) == 0 else {
                throw VRenderError.output(folder.join(Self.pageName), SystemError.last.reason("cannot make the page private"))
            }
            try Array(Self.html(redirectingTo: url).utf8).withUnsafeBytes { try file.write($0) }
        } catch {
            file.discard()
            try? parent.removeTree(folderName)
            throw error
        }
        page = folder.join(Self.pageName)
    }

    /// Hands the page to the desktop's browser (`xdg-open FILE`); a machine without one just
    /// has the printed URL.
    func open() {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", page]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
    }

    /// Removes the page and its folder.
    func remove() {
        try? parent.removeTree(folderName)
    }

    /// A page that goes on to `url` at once, without a Referer (the URL carries the token).
    static func html(redirectingTo url: String) -> String {
        let escaped = url.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        return """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
            <meta http-equiv="refresh" content="0; url=\(escaped)"><title>vrender studio</title></head>
            <body><p><a href="\(escaped)">Open the studio</a></p></body></html>

            """
    }

    static func temporaryFolder() -> String {
        var given = ProcessInfo.processInfo.environment["TMPDIR"] ?? ""
        while given.count > 1 && given.hasSuffix("/") { given.removeLast() }
        return given.hasPrefix("/") ? given : "/tmp"
    }
}
