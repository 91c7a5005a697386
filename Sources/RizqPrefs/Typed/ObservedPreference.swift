/// What the three property wrappers (``UserDefault``, ``CodableUserDefault``, ``AppStorage``)
/// share: a ``Key`` and the ``PreferenceObservation`` that reports the property to Observation
/// when its class is `@Observable`. The wrappers' enclosing-instance subscripts call the two
/// functions here, so that reading and changing an observed property is written once.
protocol ObservedPreference {
    associatedtype Value: Sendable
    /// The key the property is stored under.
    var projectedValue: Key<Value> { get }
    /// Its reports to Observation.
    var observation: PreferenceObservation { get }
}

extension ObservedPreference {
    /// The property of `instance` stored in `storage`, the read reported to Observation.
    static func observedValue<Enclosing: AnyObject>(
        _ instance: Enclosing, _ wrapped: ReferenceWritableKeyPath<Enclosing, Value>, _ storage: ReferenceWritableKeyPath<Enclosing, Self>
    ) -> Value {
        let wrapper = instance[keyPath: storage]
        return PreferenceObservation.read(instance, wrapped, key: wrapper.projectedValue, observation: wrapper.observation)
    }

    /// Stores `newValue` in the property of `instance`, the change reported to Observation.
    static func setObservedValue<Enclosing: AnyObject>(
        _ newValue: Value, _ instance: Enclosing, _ wrapped: ReferenceWritableKeyPath<Enclosing, Value>,
        _ storage: ReferenceWritableKeyPath<Enclosing, Self>
    ) {
        let wrapper = instance[keyPath: storage]
        PreferenceObservation.write(instance, wrapped, newValue, key: wrapper.projectedValue, observation: wrapper.observation)
    }
}
