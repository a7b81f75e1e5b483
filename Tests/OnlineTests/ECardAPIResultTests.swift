import Testing

@testable import Online

@Suite struct ECardAPIResultTests {
    /// The URIs are the eCard-API's (TR-03112-1), as AusweisApp reports them in AUTH.
    @Test func urisAreTheECardAPIs() {
        #expect(ECardAPIResult.Major.ok.rawValue == "http://www.bsi.bund.de/ecard/api/1.1/resultmajor#ok")
        #expect(ECardAPIResult.Major.error.rawValue == "http://www.bsi.bund.de/ecard/api/1.1/resultmajor#error")
        #expect(
            ECardAPIResult.Minor.cancellationByUser.rawValue
                == "http://www.bsi.bund.de/ecard/api/1.1/resultminor/sal#cancellationByUser")
        #expect(
            ECardAPIResult.Minor.communicationError.rawValue
                == "http://www.bsi.bund.de/ecard/api/1.1/resultminor/al/common#communicationError")
        for minor in ECardAPIResult.Minor.allCases {
            #expect(minor.rawValue.hasPrefix("http://www.bsi.bund.de/ecard/api/1.1/resultminor/"))
            #expect(minor.rawValue.hasSuffix("#\(minor)"), "the case is named after the URI's fragment")
        }
        #expect(ECardAPIResult.ok.minor == nil)
        #expect(ECardAPIResult.error(.noPermission) == ECardAPIResult(major: .error, minor: .noPermission))
    }
}
