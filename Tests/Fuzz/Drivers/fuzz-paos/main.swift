import FuzzTargets
import LibFuzzerDriver

// `make fuzz` builds this with -sanitize=fuzzer,address (see LibFuzzerDriver).
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzTarget.paos.run(data, size)
}

runLibFuzzer(testOneInput)
