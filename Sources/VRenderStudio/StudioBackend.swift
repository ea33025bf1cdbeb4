import VRenderCore

/// What the studio's server serves: a thin shell over this, as the CLI is over the library.
/// `StudioSession` is the real one; tests of the server use a fake.
package protocol StudioBackend: Sendable {
    /// The current snapshot.
    func state() -> StudioState
    /// Snapshots and preview pictures as they come, latest only (a slow page skips, never
    /// queues). `cancel` ends both streams.
    func subscribe() -> StudioSubscription
    /// Performs a page's action. Throws `StudioActionError` when it is refused. Never blocks
    /// the caller's thread on the file system (a folder's lock, an fsync): the server's
    /// handlers await it.
    func perform(_ action: StudioAction) async throws
    /// Where the file a `/media/KIND/NAME` request may read is: a folder the studio holds open,
    /// and NAME in it, which the server opens through that folder (`HeldFile`: no link
    /// followed, regular files only); nil unless NAME is one the studio listed or made itself
    /// (a take's thumbnail in takes.json, a proxy or export it wrote). NAME is one path
    /// component. May read the file system: the server calls it off its own threads.
    func mediaLocation(_ kind: MediaKind, name: String) -> MediaLocation?
    /// PNG bytes: the filter preview grid (every filter on the latest take's middle frame, or
    /// on the live picture when there is no take yet).
    func filterGrid() throws -> [UInt8]
}

/// The folders `/media/KIND/NAME` serves from.
package enum MediaKind: String, Sendable, CaseIterable {
    /// Thumbnails (PNG) of the takes, in the takes folder.
    case thumbnails
    /// Browser-playable copies of the takes (H.264 MP4), in TAKES/proxies/.
    case proxies
    /// Finished exports, in the exports folder.
    case exports
    /// The takes' captions (WebVTT) from the prompter's script, made on request beside the
    /// playable copies (`StudioCaptions`).
    case captions
}

/// A file the studio serves: the folder it holds open for its kind, and the name in it.
package struct MediaLocation: Sendable {
    package let folder: FolderHandle
    package let name: String

    package init(folder: FolderHandle, name: String) {
        self.folder = folder
        self.name = name
    }
}

/// One page's view of the session.
package struct StudioSubscription: Sendable {
    package let states: AsyncStream<StudioState>
    package let previews: AsyncStream<PreviewFrame>
    package let cancel: @Sendable () -> Void

    package init(states: AsyncStream<StudioState>, previews: AsyncStream<PreviewFrame>, cancel: @escaping @Sendable () -> Void) {
        self.states = states
        self.previews = previews
        self.cancel = cancel
    }
}

/// One preview picture as the WebSocket sends it (a binary message):
///
///     bytes 0..<4   "VRP1"
///     bytes 4..<12  float64 little-endian: when the frame was captured, Unix milliseconds
///                   (the camera's own timestamp, moved onto the wall clock)
///     bytes 12..<16 uint32 little-endian: the camera's frame number
///     bytes 16..<18 uint16 little-endian: picture width
///     bytes 18..<20 uint16 little-endian: picture height
///     bytes 20...   JPEG
package struct PreviewFrame: Sendable {
    package static let magic: [UInt8] = Array("VRP1".utf8)
    package static let headerSize = 20
    package let bytes: [UInt8]

    package init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Header and JPEG in one buffer.
    package init(capturedAtUnixMilliseconds: Double, sequence: Int, width: Int, height: Int, jpeg: some Collection<UInt8>) {
        var bytes = Self.magic
        bytes.reserveCapacity(Self.headerSize + jpeg.count)
        withUnsafeBytes(of: capturedAtUnixMilliseconds.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: sequence).littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt16(clamping: width).littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt16(clamping: height).littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: jpeg)
        self.bytes = bytes
    }
}
