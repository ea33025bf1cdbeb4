import Foundation
import VRenderCore
import VRenderImaging
import VRenderMedia

extension TakesRecovery {
    /// An unfinished take saved: what reading the new file back found, and what was copied.
    struct Salvaged {
        var check: TakeCheck
        var copied: PacketSalvage.Outcome
    }

    /// Copies the whole packets of the unfinished take at `path` into a finished file beside it
    /// (AtomicFile's temporary), reads that back, and renames it over the original only when it
    /// decodes with no error and gives at least the frames the original gives. Otherwise the
    /// original stays as it was and the error says why (it names `path`).
    static func salvage(_ path: String) throws -> Salvaged {
        guard let layout = try QuickTimeLayout.read(path) else { throw VRenderError.input(path, "not a QuickTime file") }
        // Said plainly rather than as the demuxer's "truncated before its index".
        guard layout.boxes.contains(where: { $0.type == "moof" }) else {
            throw VRenderError.input(path, "no whole frame to save: the file (\(layout.fileSize) bytes) ends before its first fragment is complete")
        }
        let before = TakeVerifier.verify(path: path, streamsEndTogether: false)
        // Frames the original decodes cleanly: a frame cut short may decode damaged, and the
        // copy, which drops it, must not be held to it.
        let owed = Swift.max(1, before.decodableFrames - before.damagedFrames)
        let target = AtomicFile(path: path)
        do {
            let readable = layout.readableLength
            let copied = try PacketSalvage.copy(path, readingFirst: readable < layout.fileSize ? readable : nil,
                                                to: target.open(), named: target.temporaryPath, formatPath: path,
                                                headerOptions: TakeFileLayout.copyHeaderOptions)
            guard copied.videoPackets > 0 else { throw VRenderError.input(path, "no whole frame to save (the first one is cut short)") }
            let after = TakeVerifier.verify(path: try target.readablePath, streamsEndTogether: false)
            guard after.isGood, after.decodableFrames >= owed else {
                throw VRenderError.input(path, "the copy did not check out (\(after.problem ?? "\(after.decodableFrames) of \(owed) frames"))")
            }
            try target.commit()
            return Salvaged(check: after, copied: copied)
        } catch {
            target.discard()
            throw error
        }
    }

    /// A `takes.json` entry for the take file `name`, read from the file: frames and duration
    /// from `check`, picture and codec from probing it, the start from its `creation_time` tag
    /// and the camera from its `comment` tag (`TakeFileTags`). `modified`: the file's time
    /// before recovery touched it, for a file without the tag.
    static func entry(forFile name: String, in directory: String, check: TakeCheck, modified: Date?,
                      thumbnail: String?) throws -> TakeEntry {
        let path = TakesFolder.join(directory, name)
        let info = try Probe.probe(path)
        let tags = try VRenderError.attributing(to: path, as: .input) { try Demuxer(path: path).metadata }
        // A file's time is when its last fragment was written, the end of the take.
        let created = tags["creation_time"].flatMap(parseTagDate) ?? modified?.addingTimeInterval(-check.duration) ?? Date()
        return TakeEntry(
            file: name, thumbnail: thumbnail, created: ISO8601DateFormatter().string(from: created),
            frames: check.decodableFrames, dropped: 0, duration: listedSeconds(check.duration),
            // The rate and encoder the capture wrote in the comment tag: a take with dropped
            // frames averages less than its rate, and the stream names only the codec.
            fps: TakeFileTags.field("fps", inComment: tags["comment"]) ?? info.video.frameRate.reduced().description,
            width: info.video.width, height: info.video.height,
            codec: TakeFileTags.field("encoder", inComment: tags["comment"]) ?? info.video.codecName,
            device: TakeFileTags.field("device", inComment: tags["comment"]) ?? "unknown",
            preroll: 0, timeline: [], latency: nil, check: check)
    }

    /// Seconds as `takes.json` lists them: to the microsecond, without the float noise of a sum
    /// of frame durations (2.9999999999999996).
    static func listedSeconds(_ seconds: Double) -> Double { (seconds * 1e6).rounded() / 1e6 }

    /// `creation_time` as FFmpeg reads it from a QuickTime header ("2026-11-22T00:23:05.000000Z":
    /// microseconds, which ISO8601DateFormatter does not take), to the second.
    static func parseTagDate(_ text: String) -> Date? {
        var text = text
        if let dot = text.firstIndex(of: ".") {
            let zone = text[dot...].firstIndex { $0 == "Z" || $0 == "+" || $0 == "-" } ?? text.endIndex
            text.removeSubrange(dot..<zone)
        }
        return ISO8601DateFormatter().date(from: text)
    }

    /// Makes the thumbnail `name` of the take at `videoPath` (the frame at 0.05 s, as a capture
    /// makes it) when the folder has nothing by that name. Written through the folder's
    /// descriptor, below it only (never through a link). Returns false when it could not be made.
    @discardableResult
    static func ensureThumbnail(_ name: String, in folder: FolderHandle, of videoPath: String) -> Bool {
        do {
            guard case .at(let parent, let last) = try TakesFolder.locate(name, in: folder) else { return false }
            if parent.status(last) != nil { return true }
            let image = try FrameGrabber.frame(in: videoPath, atSeconds: TakeFileLayout.thumbnailTime) {
                try Thumbnailer().thumbnail(of: $0, width: TakeFileLayout.thumbnailWidth)
            }
            try PNGWriter.write(image, in: parent, name: last)
            return true
        } catch {
            return false
        }
    }

    /// The file's modification time, nil when it cannot be read.
    static func modificationDate(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }
}
