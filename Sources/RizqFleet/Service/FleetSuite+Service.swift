#if Fleet
import ServiceLifecycle

/// A fleet suite is a swift-service-lifecycle `Service`: add it to the app's `ServiceGroup`, and
/// it holds the listening connection for as long as the app runs — ``FleetSuite/run()``,
/// ended by the group's graceful shutdown.
///
/// ```swift
/// let group = ServiceGroup(services: [fleet, httpServer], gracefulShutdownSignals: [.sigterm], logger: logger)
/// try await group.run()
/// ```
extension FleetSuite: Service {}

extension FleetSuite {
    /// ``run()`` until the service group shuts down gracefully (or the task is cancelled).
    public func runUntilGracefulShutdown() async throws {
        try await cancelWhenGracefulShutdown {
            try await self.run()
        }
    }
}
#endif
