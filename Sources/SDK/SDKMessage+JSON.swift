import OrderedJSON

extension SDKMessage {
    /// The message as the SDK's JSON object.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("msg", .string(name))]
        switch self {
        case .readerList(let readers):
            members.append(("reader", .array(readers.map { .object($0.jsonMembers) })))
        case .reader(let reader):
            members += reader.jsonMembers
        case .insertCard:
            break
        case .enterPIN(let error, let reader), .enterCAN(let error, let reader),
            .enterPUK(let error, let reader), .enterNewPIN(let error, let reader):
            if let error { members.append(("error", .string(error))) }
            members.append(("reader", .object(reader.jsonMembers)))
        case .changePIN(let success):
            if let success { members.append(("success", .bool(success))) }
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
        case .auth(let result, let url):
            if let result { members.append(("result", result.json)) }
            if let url { members.append(("url", .string(url))) }
        case .accessRights(let info):
            members += info.jsonMembers
        case .certificate(let info):
            members += info.jsonMembers
        case .status(let workflow, let progress, let state):
            members += [
                ("workflow", .string(workflow)), ("progress", .integer(progress)),
                ("state", state.map { .string($0) } ?? .null),
            ]
        }
        return .object(members)
    }

    /// One line of JSON, as the JSON face prints it.
    public var jsonLine: String { json.text }
}

extension ReaderInfo {
    var jsonMembers: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [("name", .string(name)), ("attached", .bool(attached))]
        // The SDK shows "keypad" only for an attached reader.
        if attached { members.append(("keypad", .bool(keypad))) }
        members.append(("card", card.json))
        return members
    }
}

extension CardPresence {
    var json: JSONValue {
        switch self {
        case .none: return .null
        case .unknown: return .object([])
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
        if let canAllowed { members.append(("canAllowed", .bool(canAllowed))) }
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
