import OrderedJSON

extension SDKMessage {
    /// The message as the SDK's JSON object at the initial API level.
    public var json: JSONValue { json(level: APILevel.initial) }

    /// The message as the SDK's JSON object at API `level`. What differs by level: READER_LIST's
    /// list is `reader` at level 1 and `readers` from level 2 on; an unknown card is `{}` at
    /// level 3 and null below; INFO's `AusweisApp` and CHANGE_PIN's `reason` are level 3's.
    public func json(level: Int) -> JSONValue {
        var members: [(String, JSONValue)] = [("msg", .string(name))]
        switch self {
        case .readerList(let readers):
            members.append((level >= 2 ? "readers" : "reader", .array(readers.map { .object($0.jsonMembers(level)) })))
        case .reader(let reader):
            members += reader.jsonMembers(level)
        case .readerRefused(let error), .authRefused(let error):
            members.append(("error", .string(error)))
        case .insertCard:
            break
        case .enterPIN(let error, let reader), .enterCAN(let error, let reader),
            .enterPUK(let error, let reader), .enterNewPIN(let error, let reader):
            if let error { members.append(("error", .string(error))) }
            members.append(("reader", .object(reader.jsonMembers(level))))
        case .changePIN(let success, let reason):
            if let success { members.append(("success", .bool(success))) }
            if let reason, success == false, level >= 3 { members.append(("reason", .string(reason))) }
        case .apiLevel(let error, let available, let current):
            if let error { members.append(("error", .string(error))) }
            if let available { members.append(("available", .array(available.map { .integer($0) }))) }
            members.append(("current", .integer(current)))
        case .badState(let command):
            members.append(("error", .string(command)))
        case .invalid(let error):
            members.append(("error", .string(error)))
        case .unknownCommand(let command):
            members.append(("error", .string(command)))
        case .internalError(let error):
            if let error { members.append(("error", .string(error))) }
        case .info(let info):
            members.append(
                (
                    "VersionInfo",
                    .object([
                        ("Name", .string(info.name)),
                        ("Implementation-Title", .string(info.name)),
                        ("Implementation-Vendor", .string("eid developers")),
                        ("Implementation-Version", .string(info.implementationVersion)),
                        ("Specification-Title", .string("TR-03124")),
                        ("Specification-Vendor", .string("Federal Office for Information Security")),
                        ("Specification-Version", .string("1.4")),
                    ])
                ))
            if level >= 3 { members.append(("AusweisApp", .string(info.ausweisApp))) }
        case .auth(let result, let url):
            if let result { members.append(("result", result.json)) }
            if let url { members.append(("url", .string(url))) }
        case .accessRights(let info):
            members += info.jsonMembers
        case .certificate(let info):
            members += info.jsonMembers
        case .status(let workflow, let progress, let state):
            members += [
                ("workflow", workflow.map { .string($0) } ?? .null),
                ("progress", progress.map { .integer($0) } ?? .null),
                ("state", state.map { .string($0) } ?? .null),
            ]
        }
        return .object(members)
    }

    /// One line of JSON at the initial API level.
    public var jsonLine: String { json.text }

    /// One line of JSON at API `level`, as the JSON face prints it.
    public func jsonLine(level: Int) -> String { json(level: level).text }
}

extension ReaderInfo {
    /// The members of READER (and of each reader in READER_LIST and ENTER_*): a reader that is
    /// not attached is only its name and `attached: false`.
    func jsonMembers(_ level: Int) -> [(String, JSONValue)] {
        guard attached else { return [("name", .string(name)), ("attached", .bool(false))] }
        return [
            ("name", .string(name)), ("insertable", .bool(insertable)), ("attached", .bool(true)),
            ("keypad", .bool(keypad)), ("card", card.json(level)),
        ]
    }
}

extension CardPresence {
    func json(_ level: Int) -> JSONValue {
        switch self {
        case .none: return .null
        case .unknown: return level >= 3 ? .object([]) : .null
        case .eID(let info):
            return .object([
                ("inoperative", .bool(info.inoperative)),
                ("deactivated", .bool(info.deactivated)),
                ("retryCounter", .integer(info.retryCounter)),
            ])
        }
    }
}

extension AuthResult {
    var json: JSONValue {
        var members: [(String, JSONValue)] = [("major", .string(major))]
        if let minor { members.append(("minor", .string(minor))) }
        if let language { members.append(("language", .string(language))) }
        if let description { members.append(("description", .string(description))) }
        if let message { members.append(("message", .string(message))) }
        if let reason { members.append(("reason", .string(reason))) }
        return .object(members)
    }
}

extension AccessRightsInfo {
    var jsonMembers: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        if let error { members.append(("error", .string(error))) }
        if let aux {
            var fields: [(String, JSONValue)] = []
            if let v = aux.ageVerificationDate { fields.append(("ageVerificationDate", .string(v))) }
            if let v = aux.requiredAge { fields.append(("requiredAge", .string(v))) }
            if let v = aux.validityDate { fields.append(("validityDate", .string(v))) }
            if let v = aux.communityId { fields.append(("communityId", .string(v))) }
            members.append(("aux", .object(fields)))
        }
        members.append(
            (
                "chat",
                .object([
                    ("effective", .array(effective.map { .string($0) })),
                    ("optional", .array(optional.map { .string($0) })),
                    ("required", .array(required.map { .string($0) })),
                ])
            ))
        if let transactionInfo { members.append(("transactionInfo", .string(transactionInfo))) }
        return members
    }
}

extension CertificateInfo {
    var jsonMembers: [(String, JSONValue)] {
        var description: [(String, JSONValue)] = [("issuerName", .string(issuerName))]
        if let issuerUrl { description.append(("issuerUrl", .string(issuerUrl))) }
        description.append(("subjectName", .string(subjectName)))
        if let subjectUrl { description.append(("subjectUrl", .string(subjectUrl))) }
        description.append(("termsOfUsage", .string(termsOfUsage)))
        if let purpose { description.append(("purpose", .string(purpose))) }
        return [
            ("description", .object(description)),
            (
                "validity",
                .object([("effectiveDate", .string(effectiveDate)), ("expirationDate", .string(expirationDate))])
            ),
        ]
    }
}
