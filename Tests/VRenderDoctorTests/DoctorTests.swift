import Testing
@testable import VRenderDoctor

/// What makes `vrender doctor` fail (its exit status), decided on findings made up here, since
/// the machine running the tests has every encoder.
@Suite struct DoctorTests {
    func encoders(without missing: Set<String>) -> [DoctorFinding] {
        Doctor.encoders(has: { !missing.contains($0) })
    }

    func report(_ findings: [DoctorFinding]) -> DoctorReport {
        DoctorReport(version: "test", findings: findings)
    }

    @Test func everyEncoderHereMeansTheCoreWorks() {
        let findings = encoders(without: [])
        #expect(findings.allSatisfy { $0.status == .ok && $0.fix == nil })
        #expect(report(findings).coreWorks)
    }

    @Test func eitherOfX265AndX264IsEnough() {
        for missing in ["libx265", "libx264"] {
            let findings = encoders(without: [missing])
            #expect(findings.filter { $0.status == .missing }.count == 1)
            #expect(report(findings).coreWorks, "without \(missing)")
        }
    }

    @Test func withoutBothOrWithoutAACTheCoreFails() {
        let neither = report(encoders(without: ["libx265", "libx264"]))
        #expect(!neither.coreWorks)
        #expect(neither.coreFailures.map(\.name) == ["x265", "x264"])
        #expect(neither.coreFailures.allSatisfy { $0.fix?.contains("install") == true })
        #expect(report(encoders(without: ["aac"])).coreFailures.map(\.name) == ["AAC"])
    }

    @Test func aMissingOptionalEncoderOrDeviceIsNotAFailure() {
        let findings = encoders(without: ["libsvtav1", "libaom-av1", "libopus"])
            + [DoctorFinding(area: "V4L2", name: "no camera", status: .none, detail: "", fix: "plug one in")]
        #expect(report(findings).coreWorks)
        // AV1 names both encoders it could use.
        #expect(findings.first { $0.name == "SVT-AV1" }?.detail.contains("libsvtav1 or libaom-av1") == true)
    }

    @Test func aFolderThatDoesNotExistIsMeasuredAtItsNearestParent() {
        let finding = Doctor.disk(at: "/tmp/vrender-doctor-test-does-not-exist/takes")
        #expect(finding.name == "/tmp")
        #expect(finding.detail.contains("GB free"))
    }
}
