import VRenderCore
import VRenderMedia

/// A flash of the clapper's patch: the time of its first frame on the file's clock, and whether
/// that frame shows the patch whole (white) or blended (a dissolve or fade mixes it with
/// another frame: mid-grey).
struct SyncFlash: Equatable {
    var time: Double
    var blended: Bool
    /// The file's first frame: its click may fall in the sound's encoder priming.
    var first: Bool
}

/// The picture side of `vrender sync`: the synthetic camera's top-left patch (a sixth of the
/// picture's height, white on a clap, black otherwise), read from every frame as decoded, in
/// presentation order (an edit list's hidden frames are never returned).
enum SyncPictures {
    /// Luma (0 black, 1 white) from which the patch counts as lit, and as whole.
    static let lit = 0.25
    static let whole = 0.75

    /// Each frame's time and the patch's luma: a band across its top (rows 1/16 to 3/16 of the
    /// patch, columns 1/8 to 7/8), clear of its edges' encoding blur and above a prompter box
    /// burned in at its default place, as scripts/clap_sync.py reads it.
    static func lumas(path: String) throws -> [(time: Double, luma: Double)] {
        let frames = try DecodedFrames(path: path, threads: 2)
        var found: [(time: Double, luma: Double)] = []
        while let frame = try frames.next() {
            guard let stamp = frame.presentationTimestamp else { continue }
            let side = max(2, frame.height / 6 & ~1)
            guard let luma = frame.meanLuma(x: side / 8, y: side / 16, width: max(1, side * 3 / 4),
                                            height: max(1, side / 8)) else {
                throw VRenderError.input(path, "its pictures (\(frame.formatName)) have no luma plane to read the clapper's patch from")
            }
            found.append((Double(stamp) * frames.timeBase.doubleValue, luma))
        }
        return found
    }

    /// The first frame of each run of lit patches; blended when that frame's patch is not whole.
    static func flashes(_ lumas: [(time: Double, luma: Double)]) -> [SyncFlash] {
        var flashes: [SyncFlash] = []
        var previous = false
        for (index, frame) in lumas.enumerated() {
            let lit = frame.luma >= Self.lit
            if lit && !previous {
                flashes.append(SyncFlash(time: frame.time, blended: frame.luma < Self.whole, first: index == 0))
            }
            previous = lit
        }
        return flashes
    }
}
