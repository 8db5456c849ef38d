// The entry points libFuzzer calls when share-fuzz is built with
// -sanitize=fuzzer (make fuzz): the target is named by SHARE_FUZZ_TARGET.
#if SHARE_FUZZER
#if canImport(Glibc)
import Glibc
#endif

nonisolated(unsafe) private var selectedTarget: (@Sendable ([UInt8]) -> Void)?

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<Int32>?,
                             _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> Int32 {
    let name = getenv("SHARE_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = FuzzTargets.named(name) else {
        complain("share-fuzz: set SHARE_FUZZ_TARGET to one of: \(FuzzTargets.all.map(\.name).joined(separator: ", "))")
        exit(2)
    }
    selectedTarget = target
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    selectedTarget?(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
#endif
