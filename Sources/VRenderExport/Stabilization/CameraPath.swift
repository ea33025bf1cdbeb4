import Foundation

/// A camera motion or correction: translation in pixels of the source picture, rotation in
/// radians (libvidstab's convention: content moves by +x, +y).
struct CameraMotion: Sendable, Equatable {
    var x = 0.0
    var y = 0.0
    var alpha = 0.0

    static func + (a: CameraMotion, b: CameraMotion) -> CameraMotion {
        CameraMotion(x: a.x + b.x, y: a.y + b.y, alpha: a.alpha + b.alpha)
    }

    static func - (a: CameraMotion, b: CameraMotion) -> CameraMotion {
        CameraMotion(x: a.x - b.x, y: a.y - b.y, alpha: a.alpha - b.alpha)
    }

    static func * (a: CameraMotion, k: Double) -> CameraMotion {
        CameraMotion(x: a.x * k, y: a.y * k, alpha: a.alpha * k)
    }
}

/// One take's camera path as its frames arrive, and each frame's correction once the frames
/// `radius` output frames after it have arrived: a delay line, so stabilization needs no
/// second decoding pass. Pure: the same frames' motions give the same corrections.
///
/// The path is the running sum of the frame-to-frame motions; a frame's correction moves it
/// from its place on the path to the Gaussian-weighted mean of the path over the frames whose
/// output frame lies within `radius` of its own (only its take's). It is summed from the
/// motions between those frames outward from the frame itself, never from where the path
/// started, so a chunk that begins reading `StabilizePlan.leadIn` frames early computes the
/// same corrections, to the bit, as a whole read.
struct CameraPath<Payload> {
    struct Entry {
        var payload: Payload
        var slot: Int
        /// From the previous frame to this one.
        var motion: CameraMotion
    }

    let radius: Int
    private var entries: [Entry] = []
    /// Index in `entries` of the first frame not yet handed on.
    private var next = 0
    private let weights: [Double]

    init(radius: Int) {
        self.radius = radius
        let sigma = max(Double(radius) / 2, 0.5)
        weights = (0...radius).map { exp(-0.5 * pow(Double($0) / sigma, 2)) }
    }

    /// Adds a frame at output frame `slot`, `motion` away from the previous frame (zero for
    /// the first). Returns the frames now ready, in order, with their corrections.
    mutating func arrive(_ payload: Payload, slot: Int, motion: CameraMotion) -> [(payload: Payload, slot: Int, correction: CameraMotion)] {
        entries.append(Entry(payload: payload, slot: slot, motion: motion))
        var ready: [(payload: Payload, slot: Int, correction: CameraMotion)] = []
        while next < entries.count, entries[next].slot + radius <= slot {
            ready.append(release())
        }
        return ready
    }

    /// The take has ended: every frame left, with its correction.
    mutating func finish() -> [(payload: Payload, slot: Int, correction: CameraMotion)] {
        var ready: [(payload: Payload, slot: Int, correction: CameraMotion)] = []
        while next < entries.count { ready.append(release()) }
        entries.removeAll()
        next = 0
        return ready
    }

    private mutating func release() -> (payload: Payload, slot: Int, correction: CameraMotion) {
        let entry = entries[next]
        var sum = CameraMotion(), total = weights[0]
        // Later frames: the path there less the path here is the sum of the motions between.
        var offset = CameraMotion()
        // Distances are taken as they come: a take whose timestamps go back (two streams
        // joined end to end) has later frames at earlier slots.
        var index = next + 1
        while index < entries.count, abs(entries[index].slot - entry.slot) <= radius {
            offset = offset + entries[index].motion
            let weight = weights[abs(entries[index].slot - entry.slot)]
            sum = sum + offset * weight
            total += weight
            index += 1
        }
        // Earlier frames: back over the motions that led here.
        offset = CameraMotion()
        index = next - 1
        while index >= 0, abs(entry.slot - entries[index].slot) <= radius {
            offset = offset - entries[index + 1].motion
            let weight = weights[abs(entry.slot - entries[index].slot)]
            sum = sum + offset * weight
            total += weight
            index -= 1
        }
        next += 1
        // Frames further back than the radius are no longer needed by any frame to come (whose
        // output frames are no earlier than the next one's, or the last one's).
        let keepFrom = (next < entries.count ? entries[next].slot : entry.slot) - radius
        let drop = entries[..<next].prefix { $0.slot < keepFrom }.count
        if drop > 0 {
            entries.removeFirst(drop)
            next -= drop
        }
        return (entry.payload, entry.slot, sum * (1 / total))
    }
}
