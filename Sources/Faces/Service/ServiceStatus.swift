import SDK

/// The answer to `GET /eID-Client?Status`: the INFO message's VersionInfo, as `Key: Value`
/// lines (text/plain) or as its JSON object (`?Status=json`), as AusweisApp answers.
struct ServiceStatus {
    let version: String

    func render(json: Bool) -> String {
        let info = SDKMessage.info(VersionInfo(implementationVersion: version)).json["VersionInfo"]
        if json { return info?.text ?? "{}" }
        guard case .object(let members)? = info else { return "" }
        return members.map { "\($0.0): \($0.1.string ?? "")\n" }.joined()
    }
}
