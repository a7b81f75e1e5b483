/// The shortest keys a phone may show (AusweisApp's `sizesIfd.min`): its certificate's RSA key, and on a
/// paired connection its ephemeral (EC)DH key.
enum IFDMinimumKeySizes {
    static let rsa = 2000
    static let dh = 2000
    static let ec = 250
}
