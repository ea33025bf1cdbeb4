import Testing
import VRenderCore
@testable import VRenderExport

/// `--stabilize`'s camera path: the delay line and its corrections, apart from libvidstab.
@Suite struct CameraPathTests {
    /// A camera that sways slowly with a fast jitter on top: positions per frame.
    static func positions(count: Int) -> [Double] {
        (0..<count).map { frame in 20 * Double(frame) / Double(count) + (frame % 2 == 0 ? 3 : -3) }
    }

    static func corrections(_ positions: [Double], from first: Int = 0, radius: Int) -> [Int: Double] {
        var path = CameraPath<Int>(radius: radius)
        var result: [Int: Double] = [:]
        for frame in first..<positions.count {
            let motion = frame == first ? 0 : positions[frame] - positions[frame - 1]
            for held in path.arrive(frame, slot: frame, motion: CameraMotion(x: motion)) {
                result[held.payload] = held.correction.x
            }
        }
        for held in path.finish() { result[held.payload] = held.correction.x }
        return result
    }

    @Test("the jitter is taken away, the slow sway kept")
    func jitterRemoved() {
        let positions = Self.positions(count: 120)
        let corrections = Self.corrections(positions, radius: 10)
        #expect(corrections.count == 120)
        for frame in 20..<100 {
            let corrected = positions[frame] + corrections[frame]!
            let sway = 20 * Double(frame) / 120
            #expect(abs(corrected - sway) < 0.3, "frame \(frame): \(corrected) vs \(sway)")
        }
    }

    @Test("a frame is held until the frames `radius` later have come, then handed on in order")
    func delay() {
        var path = CameraPath<Int>(radius: 3)
        var handed: [Int] = []
        for frame in 0..<10 {
            let ready = path.arrive(frame, slot: frame, motion: CameraMotion(x: 1))
            handed += ready.map(\.payload)
            #expect(handed.count == max(0, frame - 2), "after frame \(frame)")
        }
        handed += path.finish().map(\.payload)
        #expect(handed == Array(0..<10))
    }

    @Test("read from later on (a chunk's lead-in), frames whose window is whole get the same corrections")
    func chunkLeadIn() {
        let positions = Self.positions(count: 120)
        let whole = Self.corrections(positions, radius: 8)
        let fromLater = Self.corrections(positions, from: 50, radius: 8)
        for frame in (50 + 8)..<120 {
            #expect(whole[frame]! == fromLater[frame]!, "frame \(frame): bit for bit")
        }
    }

    @Test("strength: bad values name --stabilize; the default is 0.5")
    func strength() throws {
        #expect(try StabilizeRequest(parsing: "").strength == 0.5)
        #expect(try StabilizeRequest(parsing: "default").strength == 0.5)
        #expect(try StabilizeRequest(parsing: "0.25").radius(frameRate: Rational(30, 1)) == 15)
        for bad in ["0", "-0.5", "1.5", "x", "nan"] {
            do {
                _ = try StabilizeRequest(parsing: bad)
                Issue.record("\(bad) was accepted")
            } catch let error as VRenderError {
                #expect(error.description.contains("--stabilize"), "\(error.description)")
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test("timestamps that go back within a take (two streams joined end to end): every frame comes out once, no crash")
    func slotsThatGoBack() {
        var path = CameraPath<Int>(radius: 4)
        var out: [Int] = []
        let slots = Array(0..<10) + Array(3..<12)
        for (frame, slot) in slots.enumerated() {
            out += path.arrive(frame, slot: slot, motion: CameraMotion(x: 1)).map(\.payload)
        }
        out += path.finish().map(\.payload)
        #expect(out == Array(0..<slots.count))
    }
}
