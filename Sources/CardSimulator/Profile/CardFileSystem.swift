import EAC
import SmartCard

/// The card's files, laid out like an nPA's: the master file with EF.DIR (the list of
/// applications), EF.ATR/INFO, EF.CardAccess and EF.CardSecurity, and the ePass, eID and eSign
/// applications (DFs selected by their AIDs). The eID application holds the data groups
/// DG1-DG21 (file ID 01nn, short file ID nn), each readable only with its right after
/// Terminal and Chip Authentication; the ePass and eSign applications hold no files.
public struct CardFileSystem: Equatable, Sendable {
    /// Who may read a file.
    public enum ReadAccess: Equatable, Sendable {
        case always
        /// Only after PACE in the current card session (EF.CardSecurity on the eID card).
        case afterPACE
        /// Only after Terminal and Chip Authentication in the current card session, with the
        /// right in the effective CHAT (`EACAccess.grants`): the eID data groups.
        case granted(AccessRight)
    }

    public struct ElementaryFile: Equatable, Sendable {
        public var fileID: UInt16
        public var shortFileID: UInt8?
        public var content: [UInt8]
        public var readAccess: ReadAccess

        public init(fileID: UInt16, shortFileID: UInt8?, content: [UInt8], readAccess: ReadAccess = .always) {
            self.fileID = fileID
            self.shortFileID = shortFileID
            self.content = content
            self.readAccess = readAccess
        }
    }

    /// A dedicated file: the master file (no AID) or an application.
    public struct DedicatedFile: Equatable, Sendable {
        public var applicationID: [UInt8]?
        public var files: [ElementaryFile]

        public init(applicationID: [UInt8]?, files: [ElementaryFile]) {
            self.applicationID = applicationID
            self.files = files
        }

        public func file(id: UInt16) -> ElementaryFile? { files.first { $0.fileID == id } }
        public func file(shortID: UInt8) -> ElementaryFile? { files.first { $0.shortFileID == shortID } }
    }

    /// Where a selection points: a DF (by index; 0 is the MF) and, optionally, an EF in it.
    public struct Selection: Equatable, Sendable {
        public var dedicatedFile: Int
        public var elementaryFileID: UInt16?

        public static let masterFile = Selection(dedicatedFile: 0, elementaryFileID: nil)
    }

    public static let masterFileID: UInt16 = 0x3F00

    /// Index 0 is the master file; the others are applications.
    public var dedicatedFiles: [DedicatedFile]

    public init(dedicatedFiles: [DedicatedFile]) {
        precondition(!dedicatedFiles.isEmpty && dedicatedFiles[0].applicationID == nil, "the MF comes first")
        self.dedicatedFiles = dedicatedFiles
    }

    /// The eID card's files with `cardAccess` as EF.CardAccess, `cardSecurity` as EF.CardSecurity and
    /// `dataGroups` (number → content) in the eID application.
    public init(
        cardAccess: [UInt8], cardSecurity: [UInt8] = SimulatorSecurityInfos.defaultCardSecurity,
        dataGroups: [Int: [UInt8]] = EIDSampleData.dataGroups
    ) {
        let dataGroupFiles = dataGroups.sorted { $0.key < $1.key }.compactMap { number, content -> ElementaryFile? in
            guard let right = AccessRight.allCases.first(where: { $0.rawValue < 30 && $0.dataGroup == number }) else {
                return nil
            }
            return ElementaryFile(
                fileID: EIDDataGroup.fileID(number), shortFileID: EIDDataGroup.shortFileID(number),
                content: content, readAccess: .granted(right))
        }
        self.init(
            dedicatedFiles: [
                DedicatedFile(
                    applicationID: nil,
                    files: [
                        ElementaryFile(
                            fileID: CardApplication.directoryFileID, shortFileID: CardApplication.directoryShortFileID,
                            content: CardApplication.directory()),
                        ElementaryFile(
                            fileID: AnswerToResetInformation.fileID, shortFileID: AnswerToResetInformation.shortFileID,
                            content: AnswerToResetInformation.content),
                        ElementaryFile(
                            fileID: EIDFile.cardAccess, shortFileID: EIDFile.cardAccessShortID, content: cardAccess),
                        ElementaryFile(
                            fileID: EIDFile.cardSecurity, shortFileID: EIDFile.cardSecurityShortID,
                            content: cardSecurity,
                            readAccess: .afterPACE),
                    ])
            ]
                + CardApplication.all.map {
                    DedicatedFile(applicationID: $0, files: $0 == CardApplication.eID ? dataGroupFiles : [])
                })
    }

    public func dedicatedFile(applicationID: [UInt8]) -> Int? {
        dedicatedFiles.firstIndex { $0.applicationID == applicationID }
    }

    /// The file at `selection`, if an EF is selected: in the selected DF, else in the MF (an MF
    /// file read by short file identifier from an application).
    public func file(at selection: Selection) -> ElementaryFile? {
        selection.elementaryFileID.flatMap {
            dedicatedFiles[selection.dedicatedFile].file(id: $0) ?? dedicatedFiles[0].file(id: $0)
        }
    }

    /// The file with short identifier `sfi` in the current DF, else in the MF (where
    /// EF.CardAccess lives, which terminals read by SFI whatever is selected). The current DF
    /// stays: reading EF.CardSecurity from the eID application does not leave it.
    public func locate(shortID sfi: UInt8, from dedicatedFile: Int) -> Selection? {
        for df in [dedicatedFile, 0] {
            if let ef = dedicatedFiles[df].file(shortID: sfi) {
                return Selection(dedicatedFile: dedicatedFile, elementaryFileID: ef.fileID)
            }
        }
        return nil
    }

    /// The eID application's data groups: number → content.
    public var eIDDataGroups: [Int: [UInt8]] {
        guard let df = dedicatedFile(applicationID: CardApplication.eID) else { return [:] }
        var groups: [Int: [UInt8]] = [:]
        for file in dedicatedFiles[df].files where file.fileID & 0xFF00 == 0x0100 {
            groups[Int(file.fileID & 0xFF)] = file.content
        }
        return groups
    }
}
