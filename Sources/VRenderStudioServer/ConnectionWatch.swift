import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's child channel (HTTP/1 with the WebSocket upgrade) with `ConnectionWatch` in
/// front of it on every connection the server accepts.
struct WatchedChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value

    let inner: Inner
    let table: ConnectionTable
    let headerTimeout: Duration

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let watch = ConnectionWatch(activity: table.admit(channel), table: table, headerTimeout: headerTimeout)
            try channel.pipeline.syncOperations.addHandler(watch)
        }.flatMap {
            inner.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

/// First in a connection's pipeline, next to the socket: marks the connection active on every
/// read and write (the table closes the one idle longest when it is full), and closes it when
/// its first request's head has not arrived within `headerTimeout`. Hummingbird's own idle
/// timeout starts only once a first head has come, and a connection that never sends one was
/// never closed (issue 37 item 4: still open after 150 s). Passes every byte on unchanged.
final class ConnectionWatch: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    // Never unwrapped: HTTP and WebSocket encoders write different types, all passed on.
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private let activity: ConnectionTable.Activity
    private let table: ConnectionTable
    private let headerTimeout: Duration
    private var deadline: Scheduled<Void>?
    /// The last four bytes read while looking for the blank line that ends the first head.
    private var recent: UInt32 = 0
    private var headed = false

    init(activity: ConnectionTable.Activity, table: ConnectionTable, headerTimeout: Duration) {
        self.activity = activity
        self.table = table
        self.headerTimeout = headerTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let loop = context.eventLoop.assumeIsolated()
        deadline = loop.scheduleTask(in: TimeAmount(headerTimeout)) { [context] in
            context.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        markActive()
        if !headed {
            let buffer = unwrapInboundIn(data)
            headed = buffer.readableBytesView.contains { byte in
                recent = recent << 8 | UInt32(byte)
                return recent == 0x0D0A_0D0A   // "\r\n\r\n"
            }
            if headed {
                deadline?.cancel()
                deadline = nil
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        markActive()
        context.write(data, promise: promise)
    }

    private func markActive() {
        activity.tick.store(table.touch(), ordering: .relaxed)
    }
}
