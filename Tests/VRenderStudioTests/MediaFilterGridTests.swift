import Foundation
import Testing
import VRenderCore
import VRenderMedia
import VRenderTestSupport
@testable import VRenderStudio

@Suite struct MediaFilterGridTests {
    @Test func gridIsAPNGOfEveryFilterAtTheExpectedSize() throws {
        let take = MediaTakes.folder + "/" + MediaTakes.files[0]
        let png = try FilterGrid.png(take: take)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        // ffprobe decodes it: 10 filters, 5 to a row, 240x160 tiles (720x480 take) with 8-pixel
        // gaps and 24-pixel labels: 8 + 5 x 248 wide, 8 + 2 x (160 + 24 + 8) high.
        let file = TestMedia.scratchDirectory() + "/grid.png"
        #expect(FileManager.default.createFile(atPath: file, contents: Data(png)))
        #expect(ProgramRun.ffprobe(file, stream: "v:0", entries: "stream=codec_name") == "png")
        #expect(ProgramRun.ffprobe(file, stream: "v:0", entries: "stream=width") == "1248")
        #expect(ProgramRun.ffprobe(file, stream: "v:0", entries: "stream=height") == "392")
        #expect(ProgramRun.ffprobe(file, stream: "v:0", entries: "stream=nb_read_frames", countFrames: true) == "1")
    }

    @Test func aMissingTakeIsNamed() throws {
        let missing = TestMedia.scratchDirectory() + "/take-404.mov"
        let error = #expect(throws: VRenderError.self) { try FilterGrid.png(take: missing) }
        #expect(error?.subject == missing)
    }
}
