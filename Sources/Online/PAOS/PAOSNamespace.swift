/// The namespaces of the PAOS binding (docs/protocol.md, "PAOS namespaces"). Elements are recognised by
/// namespace URI and local name, or local name alone inside a message, never by prefix.
public enum PAOSNamespace {
    public static let soap = "http://schemas.xmlsoap.org/soap/envelope/"
    public static let paos = "urn:liberty:paos:2006-08"
    public static let wsa = "http://www.w3.org/2005/03/addressing"
    public static let iso = "urn:iso:std:iso-iec:24727:tech:schema"
    public static let dss = "urn:oasis:names:tc:dss:1.0:core:schema"
    public static let ecard = "http://www.bsi.bund.de/ecard/api/1.1"
    public static let xsi = "http://www.w3.org/2001/XMLSchema-instance"
    public static let xml = "http://www.w3.org/XML/1998/namespace"

    /// The Profile attribute value on responses.
    public static let profile = "http://www.bsi.bund.de/ecard/api/1.1"

    /// How eid writes a PAOS envelope: the prefixes of docs/protocol.md, "PAOS namespaces", on the envelope,
    /// bodies in their namespace as the default one.
    static let writer = XMLWriter(
        prefixes: [
            .init("soap", soap), .init("paos", paos), .init("wsa", wsa), .init("xsi", xsi), .init("dss", dss),
            .init("iso", iso), .init("ecard", ecard),
        ],
        unprefixedNamespaces: [iso, dss, ecard])
}
