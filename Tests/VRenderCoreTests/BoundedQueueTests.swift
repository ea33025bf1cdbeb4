import Foundation
import Testing
@testable import VRenderCore

@Suite struct BoundedQueueTests {
    @Test func keepsOrderAndEndsAfterFinish() {
        let queue = BoundedQueue<Int>(capacity: 3)
        #expect(queue.push(1))
        #expect(queue.push(2))
        queue.finish()
        #expect(!queue.push(3))
        #expect(queue.pop() == 1)
        #expect(queue.pop() == 2)
        #expect(queue.pop() == nil)
    }

    @Test func dropOldestCountsDrops() {
        let queue = BoundedQueue<Int>(capacity: 2, policy: .dropOldest)
        for value in 1...5 { #expect(queue.push(value)) }
        #expect(queue.dropped == 3)
        #expect(queue.pop() == 4)
        #expect(queue.pop() == 5)
        #expect(queue.depth == 0)
    }

    @Test func blockingProducerIsReleasedByConsumer() {
        // A producer pushes 1000 items through a queue of 4; nothing is lost or reordered.
        let queue = BoundedQueue<Int>(capacity: 4)
        let done = DispatchSemaphore(value: 0)
        Thread {
            for value in 0..<1000 { queue.push(value) }
            queue.finish()
            done.signal()
        }.start()
        var received: [Int] = []
        while let value = queue.pop() { received.append(value) }
        done.wait()
        #expect(received == Array(0..<1000))
        #expect(queue.dropped == 0)
    }

    @Test func cancelReleasesBlockedProducer() {
        let queue = BoundedQueue<Int>(capacity: 1)
        queue.push(0)
        let result = ResultBox()
        let done = DispatchSemaphore(value: 0)
        Thread {
            result.value = queue.push(1)   // blocks: the queue is full
            done.signal()
        }.start()
        queue.cancel()
        done.wait()
        #expect(result.value == false)
        #expect(queue.pop() == nil)
    }

    @Test func stageFailureCancelsItsNeighbours() {
        let group = StageGroup()
        let queue = BoundedQueue<Int>(capacity: 1)
        group.onCancel { queue.cancel() }
        struct Boom: Error {}
        group.start("consumer") { while queue.pop() != nil {} }
        group.start("producer") {
            queue.push(1)
            throw Boom()
        }
        #expect(throws: Boom.self) { try group.wait() }
    }
}

private final class ResultBox: @unchecked Sendable {
    var value: Bool?
}

/// The waiting and ending both queues share.
@Suite struct QueueLockTests {
    @Test func aWaiterReturnsWhenTheProducerFinishesOrEitherSideCancels() {
        for end in [true, false] {
            let lock = QueueLock()
            let ended = DispatchSemaphore(value: 0)
            Thread {
                lock.withLock { lock.wait(while: { true }) }   // nothing will ever arrive
                ended.signal()
            }.start()
            if end { lock.finish() } else { lock.cancel() }
            ended.wait()
            #expect(lock.withLock { end ? lock.isFinished && !lock.isCancelled : lock.isCancelled })
        }
    }

    @Test func cancelDiscardsWithTheLockHeld() {
        let lock = QueueLock()
        var items = [1, 2, 3]
        lock.cancel { items.removeAll() }
        #expect(items.isEmpty)
        lock.withLock { lock.wait(while: { true }) }   // returns at once: cancelled
    }
}
