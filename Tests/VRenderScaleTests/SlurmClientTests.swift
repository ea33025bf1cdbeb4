import Testing
@testable import VRenderScale

/// `scontrol -o show job` records as Slurm 22.05 prints them (shortened: the fields the engine
/// reads, and some that contain '=' or look alike).
@Suite("Reading Slurm's job records")
struct SlurmClientTests {
    @Test func pendingTasksShareARecord() {
        let record = "JobId=12 ArrayJobId=12 ArrayTaskId=3-6 JobName=vrender-chunk UserId=root(0) JobState=PENDING Reason=Resources Dependency=(null) ExitCode=0:0 Command=/w/slurm/render.sh"
        let states = SlurmClient.parse(record: record)
        #expect(states.map(\.task) == [3, 4, 5, 6])
        #expect(states.allSatisfy { $0.state == "PENDING" && !$0.isFinished })
    }

    @Test func finishedTasksSayHowTheyEnded() {
        let done = SlurmClient.parse(record: "JobId=13 ArrayJobId=12 ArrayTaskId=0 JobName=vrender-chunk JobState=COMPLETED Reason=None ExitCode=0:0")
        #expect(done == [SlurmClient.TaskState(task: 0, state: "COMPLETED", exitCode: "0:0")])
        #expect(done[0].isFinished && done[0].succeeded)
        let failed = SlurmClient.parse(record: "JobId=14 ArrayJobId=12 ArrayTaskId=2 JobState=FAILED Reason=NonZeroExitCode ExitCode=1:0")
        #expect(failed[0].isFinished && !failed[0].succeeded)
        let cancelled = SlurmClient.parse(record: "JobId=15 ArrayJobId=12 ArrayTaskId=1 JobState=CANCELLED Reason=None ExitCode=0:15")
        #expect(cancelled[0].isFinished && !cancelled[0].succeeded)
    }

    @Test func aPlainJobHasNoTaskNumber() {
        let join = SlurmClient.parse(record: "JobId=20 JobName=vrender-join JobState=PENDING Reason=Dependency Dependency=afterok:12_*(unfulfilled) ExitCode=0:0")
        #expect(join == [SlurmClient.TaskState(task: nil, state: "PENDING", exitCode: "0:0")])
        #expect(SlurmClient.parse(record: "garbage without a state").isEmpty)
    }

    @Test func shellWordsAreQuoted() {
        #expect(SlurmEngine.quoted("/work/it's here") == "'/work/it'\\''s here'")
    }
}
