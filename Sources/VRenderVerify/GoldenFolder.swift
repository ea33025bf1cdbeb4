import Foundation
import VRenderCore
import VRenderImaging

/// Where a golden keeps its files: `frames.txt`, a reference `frame-NNNNNN.png` per chosen
/// frame, and the `diff-NNNNNN.png` heat maps a failed check leaves beside them.
package struct GoldenFolder: Sendable {
    package let path: String

    package init(path: String) {
        self.path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    package var manifestPath: String { path + "/" + Self.manifestName }
    static let manifestName = "frames.txt"
    /// 64 MiB: frames.txt is about 100 bytes a frame, so over half a million frames.
    static let manifestLimit = 64 << 20
    package func referencePath(_ frame: Int) -> String { path + "/" + Self.name("frame", frame) }
    package func diffPath(_ frame: Int) -> String { path + "/" + Self.name("diff", frame) }

    /// "frame-000015.png".
    static func name(_ kind: String, _ frame: Int) -> String {
        let digits = String(frame)
        return "\(kind)-\(String(repeating: "0", count: Swift.max(0, 6 - digits.count)))\(digits).png"
    }

    /// Reads and parses frames.txt. A missing folder or file is an input error naming it.
    func readManifest() throws -> GoldenManifest {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw VRenderError.input(path, "no such golden folder (record one with 'vrender golden record')")
        }
        guard isDirectory.boolValue else { throw VRenderError.input(path, "is a file, not a golden folder") }
        guard let folder = try? FolderHandle.open(path), folder.status(Self.manifestName) != nil else {
            throw VRenderError.input(path, "is not a golden: it has no readable frames.txt (record one with 'vrender golden record')")
        }
        // A link is not followed, and a crafted file is not read past what a long golden needs.
        let data = try folder.readFile(Self.manifestName, limit: Self.manifestLimit)
        return try GoldenManifest.parse(String(decoding: data, as: UTF8.self), path: manifestPath)
    }

    /// Makes the folder (and its parents) if needed.
    func create() throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw VRenderError.output(path, "cannot create the golden folder (\(error.localizedDescription))")
        }
    }

    /// Writes frames.txt atomically: the golden in force is the one it describes.
    func write(_ manifest: GoldenManifest) throws {
        let text = manifest.rendered()
        try Array(text.utf8).withUnsafeBytes { try AtomicFile.write($0, to: manifestPath) }
    }

    /// Removes the folder's `kind-NNNNNN.png` files whose frame is not in `keeping`, and
    /// returns their paths.
    @discardableResult
    func removeStale(_ kind: String, keeping: Set<Int>) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        var removed: [String] = []
        for name in names.sorted() where name.hasPrefix(kind + "-") && name.hasSuffix(".png") {
            let number = name.dropFirst(kind.count + 1).dropLast(4)
            guard number.count >= 6, let frame = Int(number), !keeping.contains(frame) else { continue }
            if unlink(path + "/" + name) == 0 { removed.append(path + "/" + name) }
        }
        return removed
    }
}
