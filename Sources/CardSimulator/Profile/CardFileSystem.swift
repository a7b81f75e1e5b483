import SmartCard

/// The card's files, laid out like an nPA's: the master file with EF.DIR (the list of
/// applications), EF.ATR/INFO, EF.CardAccess and EF.CardSecurity, and the ePass, eID and eSign
/// applications (DFs selected by their AIDs; their files are not simulated yet).
public struct CardFileSystem: Equatable, Sendable {
    /// Who may read a file.
    public enum ReadAccess: Equatable, Sendable {
        case always
        /// Only after PACE in the current card session (EF.CardSecurity on the eID card).
        case afterPACE
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

    /// The eID card's files with `cardAccess` as EF.CardAccess and `cardSecurity` as EF.CardSecurity.
    public init(cardAccess: [UInt8], cardSecurity: [UInt8] = SimulatorSecurityInfos.defaultCardSecurity) {
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
            ] + CardApplication.all.map { DedicatedFile(applicationID: $0, files: []) })
    }

    public func dedicatedFile(applicationID: [UInt8]) -> Int? {
        dedicatedFiles.firstIndex { $0.applicationID == applicationID }
    }

    /// The file at `selection`, if an EF is selected.
    public func file(at selection: Selection) -> ElementaryFile? {
        selection.elementaryFileID.flatMap { dedicatedFiles[selection.dedicatedFile].file(id: $0) }
    }

    /// The file with short identifier `sfi` in the current DF, else in the MF (where
    /// EF.CardAccess lives, which terminals read by SFI whatever is selected).
    public func locate(shortID sfi: UInt8, from dedicatedFile: Int) -> Selection? {
        for df in [dedicatedFile, 0] {
            if let ef = dedicatedFiles[df].file(shortID: sfi) {
                return Selection(dedicatedFile: df, elementaryFileID: ef.fileID)
            }
        }
        return nil
    }
}
