import Glibc
import Testing
import VRenderCore

@Suite struct SystemErrorTests {
    @Test func saysStrerrorsText() {
        #expect(SystemError(code: ENOENT).description == "No such file or directory")
        #expect(SystemError(code: ENOSPC).reason("cannot write") == "cannot write (No space left on device)")
        #expect("\(SystemError(code: EACCES))" == "Permission denied")
    }

    @Test func readsTheErrnoTheFailedCallLeft() {
        let result = open("/nonexistent-vrender-\(getpid())/x", O_RDONLY)
        let failure = SystemError.last
        #expect(result == -1)
        #expect(failure == SystemError(code: ENOENT))
    }

    @Test func aFolderThatCannotBeMadeSaysWhy() throws {
        // Core's own users of the type: the reason is strerror's text for the call that failed.
        #expect(throws: VRenderError(.output, subject: "/proc/vrender-no-such/sub",
                                     reason: "cannot create the folder (No such file or directory)")) {
            try FolderHandle.openOrCreate("/proc/vrender-no-such/sub")
        }
    }
}
