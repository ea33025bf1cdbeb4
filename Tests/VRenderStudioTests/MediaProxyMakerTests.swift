import Foundation
import Testing
import VRenderCore
import VRenderMedia
import VRenderTestSupport
@testable import VRenderStudio

@Suite(.serialized) struct MediaProxyMakerTests {
    typealias Change = (file: String, state: ProxyMaker.State)

    private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    @Test func proxiesArePlayableH264MP4WithSoundAtMostProxyWidth() throws {
        let takes = try MediaTakes.copy()
        let log = EventLog<Change>()
        let maker = try ProxyMaker(takesFolder: takes, onChange: { log.add(($0, $1)) })
        defer { maker.stop() }
        let files = MediaTakes.files
        let started = MonotonicClock.now()
        for file in files { maker.enqueue(file: file) }
        #expect(log.wait { changes in files.allSatisfy { file in changes.contains { $0.file == file && $0.state == .ready } } })
        let seconds = Double(MonotonicClock.now() - started) / 1e9
        #expect(log.all.filter { $0.state == .making }.map(\.file) == files, "one at a time, in the order asked")

        for file in files {
            #expect(maker.state(of: file) == .ready)
            let proxy = maker.proxyPath(of: file)
            #expect(proxy == takes + "/proxies/" + ProxyMaker.proxyName(of: file))
            let info = try Probe.probe(proxy)
            #expect(info.video.codecName == "h264")
            #expect(info.video.pixelFormat == "yuv420p")
            #expect(info.video.width == 640 && info.video.height == 426)
            #expect(info.container.contains("mp4"))
            #expect(info.audioTracks.map { $0.codecName } == ["aac"])
            // Faststart: the index comes before the media, so a browser plays while it loads.
            let bytes = try #require(FileManager.default.contents(atPath: proxy))
            let moov = try #require(bytes.range(of: Data("moov".utf8))), mdat = try #require(bytes.range(of: Data("mdat".utf8)))
            #expect(moov.lowerBound < mdat.lowerBound)
            // Plays: ffprobe decodes every frame of the second it lasts.
            #expect(Int(ProgramRun.ffprobe(proxy, stream: "v:0", entries: "stream=nb_read_frames", countFrames: true)) == 30)
        }
        let recorded = MediaTakes.manifest.takes.reduce(0.0) { $0 + $1.duration }
        print("proxies: \(String(format: "%.1f", recorded / seconds))x real time (\(files.count) takes of 720x480, \(String(format: "%.2f", seconds)) s)")
    }

    @Test func pauseStopsTheProxyBeingMadeAndResumeMakesItFirst() throws {
        let takes = try MediaTakes.copy()
        let log = EventLog<Change>()
        let holder = MakerHolder()
        // A take starts just as the first proxy starts: deterministic, the export has not begun.
        let maker = try ProxyMaker(takesFolder: takes) { file, state in
            log.add((file, state))
            if state == .making && log.all.filter({ $0.state == .making }).count == 1 { holder.maker?.pause() }
        }
        holder.maker = maker
        defer { maker.stop() }
        let files = MediaTakes.files
        for file in files { maker.enqueue(file: file) }
        #expect(log.wait { $0.count >= 4 })
        #expect(log.all.map(\.state) == [.waiting, .waiting, .making, .waiting])
        #expect(maker.state(of: files[0]) == .waiting && maker.state(of: files[1]) == .waiting)
        #expect(try FileManager.default.contentsOfDirectory(atPath: takes + "/proxies").isEmpty, "the cancelled proxy left nothing")

        maker.resume()
        #expect(log.wait { changes in changes.filter { $0.state == .ready }.count == 2 })
        #expect(log.all.filter { $0.state == .ready }.map(\.file) == files, "the paused take is made first")
    }

    @Test func forgetDeletesOnlyItsOwnProxy() throws {
        let takes = try MediaTakes.copy()
        let files = MediaTakes.files
        let log = EventLog<Change>()
        let maker = try ProxyMaker(takesFolder: takes, onChange: { log.add(($0, $1)) })
        defer { maker.stop() }
        for file in files { maker.enqueue(file: file) }
        #expect(log.wait { changes in changes.filter { $0.state == .ready }.count == 2 })
        // Someone else's files in the proxies folder, one named as a proxy of an unknown take.
        let foreign = takes + "/proxies/notes.txt", stranger = takes + "/proxies/take-999.mp4"
        #expect(FileManager.default.createFile(atPath: foreign, contents: Data("mine".utf8)))
        #expect(FileManager.default.createFile(atPath: stranger, contents: Data("mine".utf8)))

        maker.forget(file: files[0])
        maker.forget(file: "take-999.mov")
        #expect(!exists(maker.proxyPath(of: files[0])))
        #expect(maker.state(of: files[0]) == nil)
        #expect(exists(maker.proxyPath(of: files[1])) && maker.state(of: files[1]) == .ready)
        #expect(exists(foreign) && exists(stranger))
        #expect(files.allSatisfy { exists(takes + "/" + $0) }, "the takes themselves are untouched")
    }

    @Test func proxiesAlreadyThereAreRecognisedForListedTakes() throws {
        let takes = try MediaTakes.copy()
        let files = MediaTakes.files
        try FileManager.default.createDirectory(atPath: takes + "/proxies", withIntermediateDirectories: false)
        #expect(FileManager.default.createFile(atPath: takes + "/proxies/" + ProxyMaker.proxyName(of: files[0]), contents: Data()))
        let maker = try ProxyMaker(takesFolder: takes, existing: files)
        defer { maker.stop() }
        #expect(maker.state(of: files[0]) == .ready)
        #expect(maker.state(of: files[1]) == nil)
    }

    @Test func aProxiesLinkOrFileIsRefused() throws {
        let takes = try MediaTakes.copy()
        let elsewhere = TestMedia.scratchDirectory()
        try FileManager.default.createSymbolicLink(atPath: takes + "/proxies", withDestinationPath: elsewhere)
        let error = #expect(throws: VRenderError.self) { try ProxyMaker(takesFolder: takes) }
        #expect(error?.kind == .output)
        #expect(error?.subject == takes + "/proxies")
        #expect(error?.reason.contains("symbolic link") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)

        try FileManager.default.removeItem(atPath: takes + "/proxies")
        #expect(FileManager.default.createFile(atPath: takes + "/proxies", contents: Data("x".utf8)))
        let notFolder = #expect(throws: VRenderError.self) { try ProxyMaker(takesFolder: takes) }
        #expect(notFolder?.reason.contains("not a folder") == true)
    }
}

/// The proxies and takes folders under attack from someone who can write the takes folder: a
/// proxies folder swapped for a link after the maker opened it, takes replaced by a link to a
/// private video or by a FIFO after they were listed.
@Suite(.serialized) struct MediaProxyMakerAttackTests {
    typealias Change = (file: String, state: ProxyMaker.State)

    @Test func aProxiesFolderSwappedForALinkIsNeverWrittenThrough() throws {
        let takes = try MediaTakes.copy()
        let files = MediaTakes.files
        let victim = TestMedia.scratchDirectory()
        let victimFile = victim + "/" + ProxyMaker.proxyName(of: files[0])
        #expect(FileManager.default.createFile(atPath: victimFile, contents: Data("holiday".utf8)))
        let log = EventLog<Change>()
        let maker = try ProxyMaker(takesFolder: takes, onChange: { log.add(($0, $1)) })
        defer { maker.stop() }
        // Checked and opened: now someone moves it away and puts a link to their folder there.
        try FileManager.default.moveItem(atPath: takes + "/proxies", toPath: takes + "/proxies.moved")
        try FileManager.default.createSymbolicLink(atPath: takes + "/proxies", withDestinationPath: victim)

        maker.enqueue(file: files[0])
        #expect(log.wait { $0.contains { $0.state == .ready || $0.state == .failed } })
        #expect(maker.state(of: files[0]) == .ready, "\(maker.problem(of: files[0]) ?? "")")
        #expect(FileManager.default.contents(atPath: victimFile) == Data("holiday".utf8), "the file outside is untouched")
        #expect(try FileManager.default.contentsOfDirectory(atPath: victim) == [ProxyMaker.proxyName(of: files[0])])
        let made = takes + "/proxies.moved/" + ProxyMaker.proxyName(of: files[0])
        #expect(try Probe.probe(made).video.codecName == "h264", "the proxy is in the folder the maker opened")
    }

    /// Listed takes replaced, after the listing, by a link to someone's private video and by a
    /// FIFO: neither is copied, each fails naming the take.
    @Test func aTakeReplacedByALinkOrAFIFOIsNotCopied() throws {
        let takes = try MediaTakes.copy()
        let files = MediaTakes.files
        let secret = TestMedia.scratchDirectory() + "/private.mov"
        try FileManager.default.copyItem(atPath: takes + "/" + files[1], toPath: secret)
        try FileManager.default.removeItem(atPath: takes + "/" + files[0])
        try FileManager.default.createSymbolicLink(atPath: takes + "/" + files[0], withDestinationPath: secret)
        let fifo = try PlantedFIFO(at: takes + "/" + files[1])
        defer { fifo.done() }
        let log = EventLog<Change>()
        let maker = try ProxyMaker(takesFolder: takes, onChange: { log.add(($0, $1)) })
        defer { maker.stop() }
        for file in files { maker.enqueue(file: file) }
        #expect(log.wait { changes in files.allSatisfy { file in changes.contains { $0.file == file && ($0.state == .ready || $0.state == .failed) } } })
        #expect(maker.state(of: files[0]) == .failed)
        #expect(maker.problem(of: files[0]) == "\(takes)/\(files[0]): is a symbolic link; vrender does not follow links inside a folder it works in")
        #expect(maker.state(of: files[1]) == .failed)
        #expect(maker.problem(of: files[1]) == "\(takes)/\(files[1]): is a FIFO, not a regular file")
        #expect(try FileManager.default.contentsOfDirectory(atPath: takes + "/proxies").isEmpty, "no copy of the private video")
    }
}

/// Lets the change callback reach the maker it was given to (set right after it is made).
final class MakerHolder: @unchecked Sendable {
    // @unchecked: set once before any take is queued, only read afterwards.
    var maker: ProxyMaker?
}
