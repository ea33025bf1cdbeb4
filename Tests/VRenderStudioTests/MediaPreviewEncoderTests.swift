import Foundation
import Synchronization
import Testing
import VRenderCapture
import VRenderCore
import VRenderRecording
import VRenderTestSupport
import VRenderMedia
@testable import VRenderStudio

/// Collects what the preview delivers, and lets a test wait for a number of pictures.
private final class Deliveries: Sendable {
    private let pictures = Mutex([PreviewFrame]())
    private let arrived = DispatchSemaphore(value: 0)

    func add(_ picture: PreviewFrame) {
        pictures.withLock { $0.append(picture) }
        arrived.signal()
    }

    /// Waits for `count` more pictures (a generous deadline: a hang fails instead of blocking).
    func wait(for count: Int) -> [PreviewFrame] {
        for _ in 0..<count { _ = arrived.wait(timeout: .now() + 30) }
        return pictures.withLock { $0 }
    }
}

/// Parsed header of a `PreviewFrame`.
private struct Header {
    var magic: [UInt8], capturedAt: Double, sequence: Int, width: Int, height: Int, jpeg: [UInt8]

    init(_ picture: PreviewFrame) {
        let bytes = picture.bytes
        func read<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
            bytes[offset..<offset + MemoryLayout<T>.size].reversed().reduce(T.zero) { $0 << 8 | T($1) }
        }
        magic = Array(bytes[0..<4])
        capturedAt = Double(bitPattern: read(4, UInt64.self))
        sequence = Int(read(12, UInt32.self))
        width = Int(read(16, UInt16.self))
        height = Int(read(18, UInt16.self))
        jpeg = Array(bytes[PreviewFrame.headerSize...])
    }
}

@Suite struct MediaPreviewEncoderTests {
    private func camera(width: Int = 1280, height: Int = 720, luma: UInt8 = 120, cb: UInt8 = 90, cr: UInt8 = 170) throws -> Frame {
        let frame = try Frame.picture(width: width, height: height)
        let image = frame.yuvImage()
        for y in 0..<image.luma.height { image.luma.row(y).update(repeating: luma, count: image.luma.width) }
        for y in 0..<image.cb.height {
            image.cb.row(y).update(repeating: cb, count: image.cb.width)
            image.cr.row(y).update(repeating: cr, count: image.cr.width)
        }
        return frame
    }

    private func decode(_ jpeg: [UInt8]) throws -> Frame {
        let frame = Frame()
        let ok = try jpeg.withUnsafeBytes { try MJPEGDecoder().decode($0, into: frame) }
        #expect(ok)
        return frame
    }

    @Test func offerReferencesWithoutCopyingAndTheNewestIsEncoded() throws {
        let deliveries = Deliveries()
        let claimed = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let preview = try PreviewEncoder(maxWidth: 960, quality: 6, claimed: { _ in
            claimed.signal()
            release.wait()
        }, deliver: deliveries.add)
        defer { preview.stop() }
        let frames = try (0..<10).map { try camera(luma: UInt8(30 + $0 * 10)) }

        preview.offer(frames[0], time: 0, monotonic: nil, sequence: 0)
        #expect(claimed.wait(timeout: .now() + 30) == .success)
        // The worker is blocked on frame 0: every offer now returns at once.
        for index in 1..<10 {
            preview.offer(frames[index], time: Double(index) / 30, monotonic: nil, sequence: index)
        }
        // The mailbox shares frame 9's buffers (av_frame_ref), the ones it let go are unshared again.
        #expect(!frames[9].isWritable)
        #expect(frames[1...8].allSatisfy { $0.isWritable })
        #expect(preview.counters.dropped == 8)
        release.signal()  // frame 0
        #expect(claimed.wait(timeout: .now() + 30) == .success)
        release.signal()  // frame 9
        let pictures = deliveries.wait(for: 2)
        #expect(pictures.map { Header($0).sequence } == [0, 9])
        let newest = try decode(Header(pictures[1]).jpeg)
        #expect(abs(Int(newest.yuvImage().luma.row(10)[10]) - Int(30 + 9 * 10)) <= 2)
        preview.stop()  // waits for the worker: its counters are final
        let counters = preview.counters
        #expect(counters.offered == 10 && counters.encoded == 2 && counters.dropped == 8 && counters.failed == 0)
        #expect(counters.encodeSeconds > 0)
        #expect(frames[9].isWritable, "the preview holds no frame once stopped")
    }

    @Test func headerFieldsAndScaledSize() throws {
        let deliveries = Deliveries()
        let preview = try PreviewEncoder(maxWidth: 960, deliver: deliveries.add)
        defer { preview.stop() }
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        let wallBefore = (Double(wall.tv_sec) + Double(wall.tv_nsec) / 1e9) * 1000
        // Captured half a second ago on the monotonic clock.
        let monotonic = Double(MonotonicClock.now()) / 1e9 - 0.5
        preview.offer(try camera(), time: 3, monotonic: monotonic, sequence: 77)
        let header = Header(deliveries.wait(for: 1)[0])
        clock_gettime(CLOCK_REALTIME, &wall)
        let wallAfter = (Double(wall.tv_sec) + Double(wall.tv_nsec) / 1e9) * 1000
        #expect(header.magic == PreviewFrame.magic)
        #expect(header.sequence == 77)
        #expect(header.width == 960 && header.height == 540)
        #expect(header.capturedAt >= wallBefore - 500 - 5 && header.capturedAt <= wallAfter - 500 + 5)
        let decoded = try decode(header.jpeg)
        #expect(decoded.width == 960 && decoded.height == 540)
    }

    @Test func withoutMonotonicTimeTheCaptureTimeIsNow() throws {
        let deliveries = Deliveries()
        let preview = try PreviewEncoder(maxWidth: 320, deliver: deliveries.add)
        defer { preview.stop() }
        let before = Date().timeIntervalSince1970 * 1000
        preview.offer(try camera(width: 641, height: 479), time: 0, monotonic: nil, sequence: 1)
        let header = Header(deliveries.wait(for: 1)[0])
        #expect(header.capturedAt >= before - 5 && header.capturedAt <= Date().timeIntervalSince1970 * 1000 + 5)
        // 320 wide, aspect kept, even sides.
        #expect(header.width == 320 && header.height == 238)
    }

    @Test func theFilterChangesThePicture() throws {
        let deliveries = Deliveries()
        let preview = try PreviewEncoder(maxWidth: 320, deliver: deliveries.add)
        defer { preview.stop() }
        preview.offer(try camera(), time: 0, monotonic: nil, sequence: 0)
        // The picture views point into the decoded frame's buffers: the frame must outlive them.
        let plainFrame = try decode(Header(deliveries.wait(for: 1)[0]).jpeg)
        let plain = plainFrame.yuvImage()
        #expect(abs(Int(plain.cb.row(4)[4]) - 90) <= 2 && abs(Int(plain.cr.row(4)[4]) - 170) <= 2)
        withExtendedLifetime(plainFrame) {}

        try preview.setFilter(specification: "mono")
        preview.offer(try camera(), time: 0, monotonic: nil, sequence: 1)
        let monoFrame = try decode(Header(deliveries.wait(for: 1)[1]).jpeg)
        let mono = monoFrame.yuvImage()
        #expect(abs(Int(mono.cb.row(4)[4]) - 128) <= 1 && abs(Int(mono.cr.row(4)[4]) - 128) <= 1)
        withExtendedLifetime(monoFrame) {}

        let error = #expect(throws: VRenderError.self) { try preview.setFilter(specification: "bogus") }
        #expect(error?.description.contains("bogus") == true)
    }

    @Test func offersAfterStopAreDropped() throws {
        let preview = try PreviewEncoder(deliver: { _ in })
        preview.stop()
        let frame = try camera(width: 64, height: 48)
        preview.offer(frame, time: 0, monotonic: nil, sequence: 0)
        #expect(frame.isWritable)
        #expect(preview.counters.dropped == 1 && preview.counters.encoded == 0)
        #expect(throws: VRenderError.self) { try PreviewEncoder(maxWidth: 1, deliver: { _ in }) }
        #expect(throws: VRenderError.self) { try PreviewEncoder(quality: 40, deliver: { _ in }) }
    }

    /// A real capture with the preview attached: the takes lose no frame, the page gets
    /// pictures stamped with the synthetic camera's frame numbers.
    @Test func aCaptureFeedsThePreviewAndTheTakesDropNothing() throws {
        let deliveries = Deliveries()
        let preview = try PreviewEncoder(maxWidth: 320, deliver: deliveries.add)
        let directory = TestMedia.scratchDirectory() + "/takes"
        let options = CaptureOptions(device: "synthetic:seed=5", request: CaptureRequest(size: (640, 360)),
                                     plan: RecordingPlan(outputDirectory: directory, takes: 1, duration: 1))
        let takes = try CaptureJob(options: options).run(preview: preview)
        preview.stop()
        let counters = preview.counters
        #expect(takes.count == 1 && takes[0].dropped == 0 && takes[0].frames == 30)
        #expect(counters.offered >= 30)
        #expect(counters.encoded > 0 && counters.failed == 0)
        #expect(counters.encoded + counters.dropped == counters.offered)
        let headers = deliveries.wait(for: 0).map(Header.init)
        #expect(headers.allSatisfy { $0.width == 320 && $0.height == 180 })
        let sequences = headers.map(\.sequence)
        #expect(sequences == sequences.sorted() && Set(sequences).count == sequences.count)
    }

    /// A picture with detail everywhere (JPEG of a flat picture costs next to nothing).
    private func detailedCamera() throws -> Frame {
        let frame = try Frame.picture(width: 1280, height: 720)
        let image = frame.yuvImage()
        var random = SplitMix64(seed: 7)
        for y in 0..<image.luma.height {
            for x in 0..<image.luma.width { image.luma.row(y)[x] = UInt8(16 + (x + y) % 160 + Int(random.next() % 40)) }
        }
        for y in 0..<image.cb.height {
            for x in 0..<image.cb.width {
                image.cb.row(y)[x] = UInt8(64 + (x * 2) % 128)
                image.cr.row(y)[x] = UInt8(64 + (y * 3) % 128)
            }
        }
        return frame
    }

    /// Measures the preview's cost per picture at 1280x720 → 960x540 (printed for the report).
    @Test func encodeTimePerPicture() throws {
        let frame = try detailedCamera()
        for filter in ["", "mono"] {
            let deliveries = Deliveries()
            let preview = try PreviewEncoder(maxWidth: 960, deliver: deliveries.add)
            try preview.setFilter(specification: filter)
            let count = 20
            for index in 0..<count {
                preview.offer(frame, time: 0, monotonic: nil, sequence: index)
                _ = deliveries.wait(for: 1)
            }
            preview.stop()
            let counters = preview.counters
            #expect(counters.encoded == count)
            print("preview 1280x720->960x540 filter '\(filter)': \(String(format: "%.2f", counters.encodeSeconds / Double(count) * 1000)) ms CPU per picture")
        }
    }
}
