import Testing
import VRenderCore
@testable import VRenderExport
import VRenderMedia
import VRenderTestSupport

/// A stream copy's audio check on its own thread (`CopyAudioCheck`): its verdict is the one
/// the copying thread found when it decoded in line, and every way a copy ends joins it.
@Suite struct CopyAudioCheckTests {
    /// An audio packet of a take, read ahead and kept (each its own reference).
    struct AudioPacket {
        let packet: Packet
        let seconds: Double
    }

    /// The audio stream of `path`, its setup and its packets.
    func audio(of path: String) throws -> (setup: CodecSetup, packets: [AudioPacket]) {
        let demuxer = try Demuxer(path: path)
        let index = try #require(demuxer.streamCodecs.firstIndex { $0.kind == "audio" })
        let base = demuxer.timeBase(ofStream: index).doubleValue
        var packets: [AudioPacket] = []
        let packet = Packet()
        while demuxer.read(into: packet) {
            guard packet.streamIndex == index else { continue }
            let kept = Packet()
            try kept.reference(packet)
            packets.append(AudioPacket(packet: kept, seconds: Double(packet.pts ?? 0) * base))
        }
        return (try CodecSetup(of: demuxer, stream: index), packets)
    }

    /// Where decoding in line, with a decoder of the take's own, first met damage: the check
    /// before it moved to a thread of its own.
    func firstDamageInLine(_ path: String) throws -> Double? {
        let (setup, packets) = try audio(of: path)
        let decoder = try Decoder(setup: setup, threads: 1)
        for audio in packets {
            let before = decoder.damaged
            try decoder.decode(audio.packet, makeFrame: { Frame() }, output: { _ in })
            if decoder.damaged > before { return audio.seconds }
        }
        return nil
    }

    /// Hands every audio packet of `paths` to `check`, take after take.
    func handOver(_ paths: [String], to check: CopyAudioCheck) throws {
        for path in paths {
            let (setup, packets) = try audio(of: path)
            try check.startTake(path: path, setups: [setup.streamIndex: setup])
            for audio in packets { try check.check(audio.packet, seconds: audio.seconds) }
        }
    }

    @Test func healthyTakesPassAndTheDamagedOneIsBlamedWhereDecodingInLineFoundIt() throws {
        let healthy = [TestMedia.path("same_1.mov"), TestMedia.path("same_2.mov"), TestMedia.path("same_1.mov")]
        let clean = CopyAudioCheck()
        try handOver(healthy, to: clean)
        try clean.finish()

        // Same setup as the healthy takes: the damaged take decodes with their decoder, flushed.
        let damaged = TestMedia.path("damaged_middle.mov")
        let expected = try #require(try firstDamageInLine(damaged))
        let check = CopyAudioCheck()
        let verdict = try #require(throws: CopyDamage.self) {
            try handOver(healthy + [damaged, TestMedia.path("same_3.mov")], to: check)
            try check.finish()
        }
        #expect(verdict.path == damaged)
        #expect(verdict.seconds == expected)
        #expect(verdict.what == "audio that does not decode")
    }

    /// The copying thread is never more than the queue's reach ahead of the checker: once the
    /// checker found damage, the next hand-over that needs room is refused with the verdict.
    @Test func theVerdictStopsTheHandOverWithinTheQueuesReach() throws {
        let path = TestMedia.path("damaged_middle.mov")
        let expected = try #require(try firstDamageInLine(path))
        let (setup, packets) = try audio(of: path)
        let damagedAt = try #require(packets.firstIndex { $0.seconds == expected })
        let check = CopyAudioCheck(capacity: 1, batchSize: 1)
        var handedOver = 0
        let verdict = try #require(throws: CopyDamage.self) {
            try check.startTake(path: path, setups: [setup.streamIndex: setup])
            for audio in packets {
                try check.check(audio.packet, seconds: audio.seconds)
                handedOver += 1
            }
        }
        #expect(verdict.seconds == expected)
        // The damaged packet, one queued, one being decoded, one refused (the take counts as one).
        #expect(handedOver < damagedAt + 4, "\(handedOver) packets handed over, the damage at packet \(damagedAt)")
        try check.finish()
    }

    @Test func aCopyThatFailedOtherwiseEndsWithItsErrorUnlessTheCheckFoundDamageFirst() throws {
        let failure = VRenderError.output("out.mp4", "disk full")
        let clean = CopyAudioCheck()
        try handOver([TestMedia.path("same_1.mov")], to: clean)
        #expect(clean.stop(after: failure) as? VRenderError == failure)

        let damaged = CopyAudioCheck()
        var ended: any Error = failure
        do {
            try handOver([TestMedia.path("damaged_middle.mov")], to: damaged)
        } catch {
            ended = error  // the verdict, when it came while the packets were still handed over
        }
        #expect((damaged.stop(after: ended) as? CopyDamage)?.path == TestMedia.path("damaged_middle.mov"))
        try damaged.finish()  // joined already: nothing more to wait for or throw
    }

    @Test func aCancelledCopyStopsTheCheckAtOnce() throws {
        let check = CopyAudioCheck()
        try handOver([TestMedia.path("same_1.mov"), TestMedia.path("same_2.mov")], to: check)
        #expect(check.stop(after: VRenderError.cancelled) as? VRenderError == VRenderError.cancelled)
        try check.finish()
    }
}
