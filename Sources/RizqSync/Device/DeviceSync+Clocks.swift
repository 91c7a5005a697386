import RizqCore

extension DeviceSync {
    /// Each other device's offset from this device's clock as the state knows it (milliseconds;
    /// positive: its stamps run ahead; negative: its clock runs behind).
    static func signedSkews(of state: SyncState) -> [String: Int64] {
        var skews: [String: Int64] = [:]
        for (device, report) in state.reports { skews[device] = -report }
        for (device, reading) in state.clocks where reading.ahead > clockWarningMilliseconds { skews[device] = reading.ahead }
        return skews
    }

    /// The devices whose stamps are far from this device's clock, this device included when
    /// its own stamps run ahead of its clock.
    func clockSkews(of state: SyncState) -> [ClockSkew] {
        var skews = Self.signedSkews(of: state).map { ClockSkew(device: $0.key, offsetMilliseconds: $0.value) }
        let own = state.entries.values.lazy.map(\.stamp).filter { $0.origin == self.replicaID }.max()
        if let own {
            let ahead = clock.offset(of: own)
            if ahead > Self.clockWarningMilliseconds { skews.append(ClockSkew(device: replicaID, isThisDevice: true, offsetMilliseconds: ahead)) }
        }
        return skews.sorted { $0.device < $1.device }
    }
}
