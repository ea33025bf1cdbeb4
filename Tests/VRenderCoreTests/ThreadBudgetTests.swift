import Testing
import VRenderCore

@Suite struct ThreadBudgetTests {
    @Test func machineIsEveryProcessorAndNoShare() {
        #expect(ThreadBudget.machine.processors == Processors.active)
        #expect(!ThreadBudget.machine.isShare)
        #expect(ThreadBudget.share(nil) == .machine)
    }

    @Test func shareIsAtLeastOneProcessor() {
        #expect(ThreadBudget.share(3).processors == 3 && ThreadBudget.share(3).isShare)
        #expect(ThreadBudget.share(0).processors == 1)
        #expect(ThreadBudget.share(-4).processors == 1)
    }

    @Test func stagesAreWorkedOutFromTheProcessors() {
        #expect(ThreadBudget.share(1).pictureBands == 1)
        #expect(ThreadBudget.share(2).pictureBands == 2)
        #expect(ThreadBudget.share(64).pictureBands == 8)
        #expect(ThreadBudget.share(1).motionSearchThreads == 1)
        #expect(ThreadBudget.share(6).motionSearchThreads == 3)
        #expect(ThreadBudget.share(64).motionSearchThreads == 8)
    }
}
