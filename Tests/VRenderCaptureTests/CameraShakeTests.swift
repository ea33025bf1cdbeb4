import Testing
import VRenderCore
import VRenderMedia
@testable import VRenderCapture

/// `capture --shake AMPLITUDE[:SEED]`: the synthetic camera's hand-shake is a function of the
/// seed and the scene clock, so the same seed gives the same frames.
@Suite struct CameraShakeTests {
    static func frames(shake: String?, count: Int = 6) throws -> [[UInt8]] {
        var request = CaptureRequest(size: (128, 72))
        request.shake = try shake.map(CameraShake.init(parsing:))
        let camera = try SyntheticCamera(specification: "synthetic:seed=7", request: request)
        let frame = try Frame.picture(width: 128, height: 72)
        return try (0..<count).map { _ in
            _ = try camera.nextFrame(into: frame)
            return SyntheticRenderTests.bytes(frame)
        }
    }

    @Test("the same seed gives the same frames; another seed, or none, others")
    func deterministic() throws {
        let first = try Self.frames(shake: "6:3"), again = try Self.frames(shake: "6:3")
        #expect(first == again)
        let other = try Self.frames(shake: "6:4"), steady = try Self.frames(shake: nil)
        for index in 1..<first.count {
            #expect(first[index] != other[index], "frame \(index)")
            #expect(first[index] != steady[index], "frame \(index)")
        }
        // Amplitude 0 moves nothing: exactly the steady camera's frames.
        #expect(try Self.frames(shake: "0") == steady)
    }

    @Test("smooth and within the amplitude: at most AMPLITUDE pixels, small steps between frames")
    func boundedAndSmooth() throws {
        let shake = try CameraShake(amplitude: 8, seed: 1)
        var previous = shake.offset(at: 0, width: 640, height: 360)
        var largest = 0.0
        // A sinusoid of amplitude A at f Hz moves at most 2πfA per second; f ≤ 4 Hz, 30 fps.
        let maxStep: Double = 8.0 * 2 * Double.pi * 4 / 30
        for frame in 1...300 {
            let now = shake.offset(at: Double(frame) / 30, width: 640, height: 360)
            #expect(abs(now.x) <= 8 && abs(now.y) <= 8 && abs(now.angle) < 0.01)
            let step: Double = abs(now.x - previous.x)
            #expect(step < maxStep)
            largest = max(largest, abs(now.x), abs(now.y))
            previous = now
        }
        #expect(largest > 4, "the shake uses most of its amplitude")
    }

    @Test("bad values name --shake")
    func badValues() {
        for bad in ["", "x", "-1", "300", "8:", "8:-2", "8:1:2", "nan"] {
            do {
                _ = try CameraShake(parsing: bad)
                Issue.record("\(bad) was accepted")
            } catch let error as VRenderError {
                #expect(error.description.contains("--shake"), "\(error.description)")
            } catch {
                Issue.record("\(error)")
            }
        }
        #expect((try? CameraShake(parsing: "8:3")) == (try? CameraShake(amplitude: 8, seed: 3)))
    }
}
