/// A card connection whose reader runs PACE itself, with the PIN typed on the reader: a PC/SC reader
/// with FEATURE_EXECUTE_PACE (PC/SC Part 10 AMD1), or a phone as card reader in PIN-pad mode
/// (TR-03112-6 IFDEstablishPACEChannel). After a successful EstablishPACEChannel the reader keeps the
/// secure messaging: plain commands sent through `transmit` are protected by the reader, until a
/// command arrives that is already protected (the eID server's, after Chip Authentication), which
/// ends the reader's secure messaging.
///
/// The structures travel as bytes here; their encoding (PC/SC Part 10 AMD1, 2.6.16) is the caller's
/// (EAC's `EstablishPACEChannelInput`, `EstablishPACEChannelOutput`, `ModifyPINInput`).
public protocol PINPadConnection: CardConnection {
    /// EstablishPACEChannel: sends the InputData structure, waits at most `timeout` seconds for the
    /// user to type the secret on the reader, and returns the answer as FEATURE_EXECUTE_PACE gives
    /// it: Result (4 bytes, little endian), the length of OutputData (2 bytes, little endian), the
    /// OutputData structure (a phone: its ResultCode as sent, then that length and OutputData).
    func establishPACEChannel(inputData: [UInt8], timeout: Double) throws -> [UInt8]
    /// ModifyPIN inside the PACE channel, the new PIN typed on the reader: sends the InputData
    /// structure (PIN_MODIFY) and returns the reader's OutputData (the card's status word, SW1 SW2;
    /// 6400 when the user typed nothing in time, 6401 when they cancelled).
    func modifyPIN(inputData: [UInt8], timeout: Double) throws -> [UInt8]
    /// Ends the reader's PACE channel and its secure messaging.
    func destroyPACEChannel() throws
}
