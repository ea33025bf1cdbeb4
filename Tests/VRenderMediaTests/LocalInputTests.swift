import CFFmpeg
import Foundation
import Glibc
import Synchronization
import Testing
import VRenderCore
import VRenderTestSupport
@testable import VRenderMedia

/// Every input is the local file of its name (`LocalInput`): FFmpeg's network, pipe and subfile
/// protocols are never reached from a name, and a file that names other files (an ffconcat
/// script, a playlist) does not lead FFmpeg to them.
@Suite struct LocalInputTests {
    /// An `http://` name, as a concat list's entry reached the demuxer: no request is made
    /// (FFmpeg fetched the remote video before), and the name is a missing local file.
    @Test func anHTTPNameMakesNoRequest() throws {
        let server = try CountingServer()
        defer { server.stop() }
        #expect(throws: FFmpegError.self) { try Demuxer(path: "http://127.0.0.1:\(server.port)/remote.mov") }
        #expect(server.connections == 0)
    }

    /// `pipe:N` read descriptor N (`pipe:0`, standard input, blocked the export); a name is
    /// never a descriptor.
    @Test func aPipeNameIsNotADescriptor() throws {
        let video = try Data(contentsOf: URL(fileURLWithPath: TestMedia.path("mpeg4_854x480_24_noaudio.mkv")))
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        // 52 KB: the whole file fits the pipe's 64 KiB, so no writer thread is needed.
        #expect(video.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } == video.count)
        close(ends[1])
        #expect(throws: FFmpegError.self) { try Demuxer(path: "pipe:\(ends[0])") }
    }

    /// `subfile,,start,…,,:PATH` read part of PATH; from a user it is a file's name. vrender's
    /// own prefix read still works.
    @Test func aSubfileNameIsAFileName() throws {
        let take = TestMedia.path("small_a.mov")
        #expect(throws: FFmpegError.self) { try Demuxer(path: "subfile,,start,0,end,100000000,,:" + take) }
        let size = try #require(FileNames.status(take)).st_size
        #expect(try Demuxer(path: take, readingFirst: Int64(size)).bestStream(AVMEDIA_TYPE_VIDEO) != nil)
    }

    /// A FIFO (in a concat list, or a take swapped for one) is refused at once, by what it is:
    /// FFmpeg's open waited for a writer for good. A folder is refused the same way.
    @Test func aFIFOOrAFolderIsRefusedWithoutWaiting() throws {
        let folder = TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fifo = try PlantedFIFO(at: folder + "/take.mov", seconds: 20)
        defer { fifo.done() }
        for path in [fifo.path, folder] {
            #expect { try Demuxer(path: path) } throws: { error in
                (error as? FFmpegError)?.code == LocalInput.notAFile
            }
        }
        #expect(Probe.explain(FFmpegError("avformat_open_input", code: LocalInput.notAFile)).contains("not a regular file"))
    }

    /// A local file that names other files (an ffconcat script, an HLS playlist) is not
    /// followed to them: FFmpeg's demuxers opened each named file, local or remote.
    @Test(arguments: [("list.mov", "ffconcat version 1.0\nfile small_a.mov\n"),
                      ("list.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nsmall_a.mov\n#EXT-X-ENDLIST\n")])
    func aFileThatNamesOthersDoesNotOpenThem(_ name: String, _ text: String) throws {
        let folder = TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: TestMedia.path("small_a.mov"), toPath: folder + "/small_a.mov")
        try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
        #expect { try Demuxer(path: folder + "/" + name) } throws: { error in
            (error as? FFmpegError)?.code == LocalInput.namesOtherFiles
        }
    }
}

/// A TCP server on 127.0.0.1 that counts connections and closes each at once (so a client
/// that reaches it fails instead of waiting for an answer).
private final class CountingServer: Sendable {
    let port: Int
    private let socket: Int32
    private let count = Atomic<Int>(0)
    private let finished = DispatchSemaphore(value: 0)

    var connections: Int { count.load(ordering: .acquiring) }

    init() throws {
        let listener = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard listener >= 0, bound, listen(listener, 16) == 0 else { throw SystemError.last }
        socket = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in
            while case let client = accept(listener, nil, nil), client >= 0 {
                count.add(1, ordering: .releasing)
                close(client)
            }
            finished.signal()
        }.start()
    }

    /// Ends the accepting thread (shutdown wakes a blocked accept), then closes the socket.
    func stop() {
        shutdown(socket, Int32(SHUT_RDWR))
        finished.wait()
        close(socket)
    }
}
