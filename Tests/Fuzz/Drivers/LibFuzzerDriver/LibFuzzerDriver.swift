#if canImport(Glibc)
import Glibc
#endif

// libFuzzer's own entry (compiler-rt FuzzerInterface.h): runs the fuzzing loop with the
// process's arguments (-max_total_time=…, corpus folders) over `callback`.
// swift-format-ignore: AlwaysUseLowerCamelCase
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// The main of a fuzz executable. SwiftPM links an executable's `main` to its module's top-level
/// code (--defsym main=<module>_main on Linux), so libFuzzer's own main is not the one that
/// runs: the top-level code hands over to libFuzzer here. The executable must still define
/// LLVMFuzzerTestOneInput (the same function as `callback`), which libFuzzer's main references.
public func runLibFuzzer(_ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Never {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
}
