import Testing

/// An enum whose cases are the arguments of a parameterized test is named,
/// in the test's results, by each case's raw value.
extension CustomTestStringConvertible where Self: RawRepresentable, RawValue == String {
    var testDescription: String { rawValue }
}
