import FoundationEssentials

extension ContiguousBytes {
    /// Calls `body` with the bytes, keeping its error's type (the standard
    /// `withUnsafeBytes` rethrows it as `any Error`).
    public func withBytes<Failure: Error>(_ body: (UnsafeRawBufferPointer) throws(Failure) -> Void) throws(Failure) {
        let failure: Failure? = withUnsafeBytes { raw in
            do throws(Failure) {
                try body(raw)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }
}
