#!/usr/bin/python3
"""Peer tests: AusweisApp2, the reference eID client, and eid side by side, live: each authenticates with
eid-sim (in the test pcscd) as the card against `eid-testserver serve`, the project's eID server, in the
same case of the same run (issue 9, item 4; issue 27).

    ausweisapp2_auth_peer_tests.py BIN_DIR           (inside `Tests/Support/pcsc-env.sh run`; make test)
    ausweisapp2_auth_peer_tests.py BIN_DIR c3        only the TR-03124-2 C3 cases (CVCA link chains)
    ausweisapp2_auth_peer_tests.py BIN_DIR tls2      only the TR-03124-2 module E cases on TLS-2
    ausweisapp2_auth_peer_tests.py BIN_DIR FAULT...  only these cases, AusweisApp2 alone ("-" = no fault,
                                                     "tls:NAME" = no fault, the server serving NAME.pem of
                                                     tls-test-pki.sh), asserting nothing: what
                                                     AusweisApp2 gives, its SDK transcript and
                                                     log, for finding out

One AusweisApp2 (pre-verification off: the test PKI is not one of its built-in CVCAs), one `eid serve`
of BIN_DIR (`--test-pki`), one eid-sim card and one eid-testserver serve all cases, one after the
other (`LiveRunner`). Each case runs RUN_AUTH over the SDK with tcTokenURL
https://127.0.0.1:PORT/tctoken[?fault=NAME], answers ACCESS_RIGHTS with ACCEPT and ENTER_PIN with
SET_PIN, first on AusweisApp2, asserted on the case's expectation (the final AUTH's result major and
minor, its url, the questions asked, the server's GET /result): a change of AusweisApp2 or of the
server's fault shows there; then the same on eid, whose SDK messages (order, types, fields, values),
questions and /result of its session must equal AusweisApp2's, normalised as live_comparison.py lists.
Where eid differs on purpose (EID_DIFFERENCES) each side is asserted on its own known behaviour and the
case says why. On a failure both SDK transcripts, AusweisApp2's log of the case (every APDU and TLS
detail) and eid serve's output are printed, secrets masked; after a timeout or a lost connection both
clients are restarted. Ends with `compared live with AusweisApp2: N of M`, then `N passed, N failed`;
exit status 1 when a case failed.
"""
import asyncio
import json
import os
import re
import shutil
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ausweisapp2 import (NO_PREVERIFICATION, AusweisApp2, PeerError, SDKClient, SoftwareCard,  # noqa: E402
                         env_readers, run_cases, run_main, strip, terminate)
from eid_serve import EidServe  # noqa: E402
from live_comparison import (Tally, differences, field_differences, normalise, print_normalisations,  # noqa: E402
                             sdk_view)

PIN = "123456"
SECRETS = (PIN,)
CASE_TIMEOUT = 45.0
MAJOR = "http://www.bsi.bund.de/ecard/api/1.1/resultmajor#"
MINOR = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/"
GIVEN_NAMES = '"GivenNames":"ERIKA"'

# The URL AusweisApp2 gives in the final AUTH: the TcToken's RefreshAddress or its
# CommunicationErrorAddress, each as given (in SDK mode it appends no result parameters), or none.
REFRESH, COMMUNICATION_ERROR, NONE = "refresh", "communication-error", "none"


def case(fault, major, minor=None, url=REFRESH, result="error", asked=("ACCESS_RIGHTS", "ENTER_PIN"), reason=None,
         tls=None, tr=None, c3=None, tls2=None, browser=404, cancel_after_pin=False):
    """A fault (None: none) and what AusweisApp2 and the server must show: the final AUTH's result
    major and minor (the suffixes after resultmajor# and resultminor/) and which URL it gives;
    what the server's /result shows ("ok": ok:true with the sample data, "error": ok:false,
    "unchanged": still the previous session's, as the client never reached the PAOS endpoint; "any": not
    looked at, for a case that finishes no session late in the run, when an earlier case's unused
    session may time out meanwhile and change /result);
    and the questions AusweisApp2 asks before it ends; `reason`, when given, is the error reason
    /result must name; `tls`, when given, names the certificate chain of Tests/Support/tls-test-pki.sh
    that a server of the case's own serves (`serve --tls-certificate`, the chain after the leaf); `tr`,
    when given, the TR-03124-2 test cases it stages ("A2_05" or "A4_09,D_14"), named first in the case's
    name (EID_CLIENT_A2_05: …; serve_peer_tests.py's runs of eid serve count for them: `make conformance`);
    `browser`, for a case without address (url NONE), the status of the error page a browser activation gets
    (serve_peer_tests.py): 404 when no TcToken came, 400 when one did but no address came of it;
    `cancel_after_pin`: CANCEL sent right after SET_PIN; `c3`, when
    given, stages a CVCA link chain of TR-03124-2 module C3 (see `c3_case`); `tls2`, when given, a TLS-2 server
    of module E (see `tls2_case`)."""
    return dict(fault=fault, major=major, minor=minor, url=url, result=result, asked=asked, reason=reason, tls=tls,
                tr=tr, browser=browser, cancel_after_pin=cancel_after_pin, c3=c3, tls2=tls2)


def tr_prefix(expected):
    """The prefix of the name of a case with tr="A4_09,D_14" ("EID_CLIENT_A4_09, EID_CLIENT_D_14: "), else ""."""
    if not expected.get("tr"):
        return ""
    return ", ".join("EID_CLIENT_" + name.strip() for name in expected["tr"].split(",")) + ": "


# The certificates of the TLS-2 cases, made once per run (openssl req): key options, subject, extension.
TLS2_CERTIFICATES = {
    "rsa3072": (["-newkey", "rsa:3072"], "/CN=127.0.0.1", "subjectAltName=IP:127.0.0.1"),
    "rsa2048": (["-newkey", "rsa:2048"], "/CN=127.0.0.1", "subjectAltName=IP:127.0.0.1"),
    "rsa1024": (["-newkey", "rsa:1024"], "/CN=127.0.0.1", "subjectAltName=IP:127.0.0.1"),
    "ec192": (["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime192v1"], "/CN=127.0.0.1",
              "subjectAltName=IP:127.0.0.1"),
    "wrongsan": (["-newkey", "rsa:3072"], "/CN=127.0.0.1", "subjectAltName=DNS:wrong.example"),
    "wrongcn": (["-newkey", "rsa:3072"], "/CN=wrong.example", None),
}
TLS2_PSK = "4E1F0C3A5B6D7E8F90A1B2C3D4E5F60718293A4B5C6D7E8F9011223344556677"  # https_test_server.py's PSK_KEY
TLS2_SESSION = "0c3a5b6d-e2e-tls2-session"  # and its SESSION_ID
TLS2_SUITES = "RSA-PSK-AES256-GCM-SHA384:RSA-PSK-AES256-CBC-SHA"


def tls2_case(name, certificate, options, minor="dp#trustedChannelEstablishmentFailed"):
    """TR-03124-2 module E on TLS-2 (as Tests/EndToEndTests/ConformanceETLS2Tests.swift): the TcToken of
    https_test_server.py's /tctoken-psk points at an `openssl s_server -psk` with `certificate` and `options`;
    AusweisApp2 must end before the card with `minor` and the TcToken's RefreshAddress, and s_server must have
    seen its ClientHello. The shared eid-testserver is not asked: these cases run late, when an earlier case's
    unused session may time out there and change its /result (a CI run saw that), so /result is not looked at."""
    return case(None, "error", minor, result="any", asked=(),
                tls2=dict(name=name, certificate=certificate, options=options))


def c3_case(name, card, newest, eac1_from, verified, cars=()):
    """TR-03124-2 module C3 (as Tests/EndToEndTests/ConformanceC3Tests.swift): a fresh eid-sim trusting the
    generations `card` of the test CVCA series (`eid-test-pki cvca --generation N`, the current one first; None:
    the card of the case before, whose trust point may have moved on) and a server of the case's own,
    `serve --cvca-generation NEWEST --eac1-links-from EAC1_FROM`. AusweisApp2 must succeed, the card verify
    `verified` certificates (PSO:Verify Certificate in eid-sim's trace: the link certificates after its trust
    point, DV and AT) and the CARs AusweisApp2's EAC1 output names (/result's certificationAuthorityReferences)
    be `cars`."""
    return case(None, "ok", result="ok", c3=dict(name=name, card=card, newest=newest, eac1_from=eac1_from,
                                                  verified=verified, cars=[f"DEEIDTESTLK0000{g}" for g in cars]))


def success(fault, tr=None):
    return case(fault, "ok", result="ok", tr=tr)


def refused_before_the_card(fault, minor, url=REFRESH, result="error"):
    return case(fault, "error", minor, url=url, result=result, asked=())


# What a conforming client gives for each fault of `eid-testserver serve` (man/eid-testserver.1,
# FAULTS), as AusweisApp2 gives it; not oversized_ta_signature and oversized_aux_data, for which
# AusweisApp2 1.26.2 sends an empty APDU and gives no result at all (measured, see the man page). Cases run in this order: a case whose /result stays
# "unchanged" follows a success, so that a session it did run would show.
CASES = [
    success(None),
    success("psk"),
    # TR-03124-2 EID_CLIENT_A2_19: PathSecurity-Protocol TLS-PSK with empty PathSecurity-Parameters is the
    # attached model (AusweisApp's TcToken test parseNoPskButPathSecurityProtocol).
    success("psk_protocol_no_parameters"),
    case("wrong_ta_signature", "error", "al/common#noPermission"),
    case("expired_at", "error", "al/common#noPermission"),
    refused_before_the_card("description_hash_mismatch", "al/common#parameterError"),
    refused_before_the_card("tls_not_in_description", "dp#trustedChannelEstablishmentFailed", COMMUNICATION_ERROR),
    refused_before_the_card("sop_violation", "al/common#parameterError", COMMUNICATION_ERROR),
    refused_before_the_card("two_at", "il/signature#invalidCertificatePath"),
    # The chain is valid; the card grants the AND of the CHATs and refuses READ BINARY DG9 (6982).
    case("chat_beyond_dv", "error", "al/common#unknownError", reason="card_refused"),
    # The server's Transmit tries RESET RETRY COUNTER without PIN management: the card refuses it
    # (6982); the cases after it open the card with the old PIN.
    case("transmit_change_pin", "error", "al/common#unknownError", reason="card_refused"),
    case("transmit_bad_mac", "error", "al/common#unknownError"),
    case("final_error", "error", "al/common#internalError"),
    refused_before_the_card("broken_xml", "al/common#internalError"),
    refused_before_the_card("wrong_order", "al/common#internalError"),
    case("abort_mid_transmit", "error", "al/common#internalError"),
    success("initframework"),
    refused_before_the_card("http_refresh", "dp#trustedChannelEstablishmentFailed", COMMUNICATION_ERROR,
                            result="unchanged"),
    success("eac_additional"),
    refused_before_the_card("psk_wrong_key", "dp#trustedChannelEstablishmentFailed", result="unchanged"),
    success("aux_age"),
    success("transmit_single"),
    # After EAC1 the server closes the connection and serves another certificate on the next: AusweisApp2
    # checks that handshake against CommCertificates (CertificateChecker) and sends nothing over it, so the
    # session never finishes and /result keeps the previous case's.
    case("tls_changed_after_eac1", "error", "dp#trustedChannelEstablishmentFailed", result="unchanged"),
    # A CVCA rollover: the link certificate first in EAC1; the card's trust point moves on.
    success("cvca_link"),
    success("redirect"),
    case("psk,tls_changed_after_eac1", "error", "dp#trustedChannelEstablishmentFailed", result="unchanged"),
    success("slow"),
    # Web-PKI chain errors (TlsChecker::getFatalErrors over Qt's QSslError): an issuer that is no CA
    # (InvalidCaCertificate) ends the TcToken fetch; a path length violation (PathLengthExceeded) and a leaf
    # not meant for TLS servers (InvalidPurpose: EKU clientAuth, key usage keyCertSign) are ignored.
    case(None, "error", "dp#trustedChannelEstablishmentFailed", url=NONE, result="unchanged", asked=(),
         tls="invalidca"),
    case(None, "ok", result="ok", tls="pathlen"),
    case(None, "ok", result="ok", tls="clientauth"),
    case(None, "ok", result="ok", tls="keyusage"),
    # TR-03124-2 module B (the eCard-API profile). Transmit: every APDU in one batch, an acceptable 6300 among
    # them; a read the card refuses (6982, not acceptable) second in a batch, after which the client must stop
    # (the server sends the rest again); AcceptableStatusCodes of one byte.
    success("transmit_batch", tr="B_06"),
    # AusweisApp2 stops at the refused read (TransmitCommand), reports al/common#unknownError in that
    # TransmitResponse and goes on with the next Transmit; the server reads the rest and ends with ok, but the
    # status StateTransmit set for the TransmitResponse (Card_Unexpected_Transmit_Status) stays to the end: its
    # AUTH is an error although the server's StartPAOSResponse is ok. eid does the same (serve_peer_tests.py
    # expects this case of eid serve too).
    case("transmit_stop", "error", "al/common#unknownError", result="ok", tr="B_07"),
    success("transmit_status_prefix", tr="B_33"),
    # Another eService's AT certificate, or an expired one, in EAC2InputType: ignored (StateProcessCertificatesFromEac2).
    success("eac2_other_at", tr="B_09"),
    success("eac2_expired_at", tr="B_10"),
    # The server ends early with StartPAOSResponse al/common#internalError: after the EAC1 output, after the EAC2
    # output, instead of EACAdditionalInputType, and after the EAC2 output of that round.
    case("end_after_eac1", "error", "al/common#internalError", reason="end_after_eac1", tr="B_20"),
    case("end_after_eac2", "error", "al/common#internalError", reason="end_after_eac2", tr="B_21"),
    case("end_after_eac2_challenge", "error", "al/common#internalError", reason="end_after_eac2_challenge",
         tr="B_22"),
    case("end_after_eac_additional", "error", "al/common#internalError", reason="end_after_eac_additional",
         tr="B_22"),
    # EAC1InputType or EAC2InputType with a mandatory element missing or a single one twice: "The program received an
    # unknown message from the server" (internalError); EAC1 without CertificateDescription parses and is refused at
    # the certificate check ("No certificate description available", parameterError; the server gets the report).
    case("eac1_no_certificate", "error", "al/common#internalError", asked=(), reason="eac1_no_certificate", tr="B_11"),
    case("eac1_no_description", "error", "al/common#parameterError", asked=(), reason="client_reported_error",
         tr="B_12"),
    case("eac1_two_descriptions", "error", "al/common#internalError", asked=(), reason="eac1_two_descriptions",
         tr="B_13"),
    case("eac2_no_ephemeral_key", "error", "al/common#internalError", reason="eac2_no_ephemeral_key", tr="B_14"),
    case("eac2_two_ephemeral_keys", "error", "al/common#internalError", reason="eac2_two_ephemeral_keys", tr="B_15"),
    # A DV certificate whose signature is not the CVCA's: AusweisApp2 here does not pre-verify, so the card refuses
    # it after the PIN (noPermission, as expired_at); eid pre-verifies and refuses it before the card.
    case("dv_forged", "error", "al/common#noPermission", tr="B_24"),
    # The certificates in reverse order (AT, DV, the link certificate): ordered by the client.
    success("certificates_reversed", tr="B_31"),
    success("cvca_link,certificates_reversed", tr="B_31"),
    # EAC1 without RequiredCHAT and OptionalCHAT: the AT certificate's rights, all optional, preselected.
    success("eac1_no_chats", tr="D_19"),
    # TR-03124-2 cases of the TcToken fetch and the refresh address (issue 18; eid: ConformanceA2Tests):
    # 307 to the TcToken; a TcToken empty but for its CommunicationErrorAddress (the browser goes there); a
    # redirect to 404 (no TcToken, no address); a ServerAddress answering 404 (the refresh address with the
    # error; no session finishes); after the data were read, a refresh address of another origin answering 404
    # and no CommunicationErrorAddress (no address at all).
    case("redirect_307", "ok", result="ok", tr="A2_08"),
    case("empty_tctoken", "error", "dp#trustedChannelEstablishmentFailed", url=COMMUNICATION_ERROR, result="any",
         asked=(), tr="A2_05"),
    case("redirect_404", "error", "dp#trustedChannelEstablishmentFailed", url=NONE, result="any", asked=(),
         tr="A2_09,D_16_c"),
    case("server_address_404", "error", "dp#trustedChannelEstablishmentFailed", result="any", asked=(),
         tr="A2_15"),
    case("refresh_404_no_error_address", "error", "al/common#communicationError", url=NONE, result="ok",
         tr="A4_09,D_14,D_16_g", browser=400),
    # 302 to the TcToken; a redirect to http on the way to it (not followed: no TcToken, no address; 400 to a
    # browser, as for an http tcTokenURL).
    case("redirect_302", "ok", result="ok", tr="A2_06"),
    case("redirect_http", "error", "dp#trustedChannelEstablishmentFailed", url=NONE, result="any", asked=(),
         tr="A2_10,D_16_d", browser=400),
    # A blank (one space) instead of the TcToken: no TcToken, no address.
    case("blank_tctoken", "error", "dp#trustedChannelEstablishmentFailed", url=NONE, result="any", asked=(),
         tr="A2_12,D_16_f"),
    # CANCEL right after the PIN, while the client works with the server (each PAOS answer 1 s late): the
    # user's cancel, reported to the server, at the refresh address.
    case("slow", "error", "sal#cancellationByUser", tr="A4_11", cancel_after_pin=True),
    # The description's subjectURL and the refresh address (issue 18; eid: ConformanceA3A4Tests): no subjectURL
    # (refused before the card; the refresh address, of the tcTokenURL's origin, used as it is); a subjectURL with
    # another port (refused; the CommunicationErrorAddress); after the data were read, a RefreshAddress of another
    # origin redirecting to the service's origin, whose redirect names the refresh page (ok); one answering 200;
    # one redirecting to http; one whose TLS certificate is not in CommCertificates (each the
    # CommunicationErrorAddress).
    case("no_subject_url", "error", "al/common#parameterError", asked=(), tr="A3_03,A4_03"),
    case("sop_violation_port", "error", "al/common#parameterError", url=COMMUNICATION_ERROR, asked=(), tr="A3_05"),
    case("refresh_redirect", "ok", result="ok", tr="A4_05"),
    case("refresh_no_redirect", "error", "al/common#communicationError", url=COMMUNICATION_ERROR, result="ok",
         tr="A4_06"),
    case("refresh_redirect_http", "error", "al/common#communicationError", url=COMMUNICATION_ERROR, result="ok",
         tr="A4_07"),
    case("refresh_tls_not_in_description", "error", "al/common#communicationError", url=COMMUNICATION_ERROR,
         result="ok", tr="A4_08"),
    # TR-03124-2 module C3 last: each case with a card of its own (AusweisApp2 with pre-verification off builds
    # the card's chain from the CAR PACE gives, through EAC1's and EAC2's link certificates).
    c3_case("EID_CLIENT_C3_01 r=1 s=4", (1,), 4, 1, 5),
    c3_case("EID_CLIENT_C3_01 after the update", None, 4, 4, 2),
    c3_case("EID_CLIENT_C3_01 r=3 s=6", (3,), 6, 1, 5),
    c3_case("EID_CLIENT_C3_02 r=1 b=3 s=5", (1,), 5, 3, 6, cars=(1,)),
    c3_case("EID_CLIENT_C3_03 r=2 s=4", (2,), 4, 4, 4, cars=(2,)),
    c3_case("EID_CLIENT_C3_04 s-1,s=4,5", (5, 4), 5, 1, 2),
    c3_case("EID_CLIENT_C3_05 s-1,s=4,5 b=3", (5, 4), 5, 3, 2),
    c3_case("EID_CLIENT_C3_06 s-1,s=4,5", (5, 4), 5, 5, 2),
    c3_case("EID_CLIENT_C3_07 s=4", (4,), 4, 1, 2),
    c3_case("EID_CLIENT_C3_08 s=4", (4,), 4, 4, 2),
    # TR-03124-2 module E on TLS-2 (PSK), measured.
    tls2_case("EID_CLIENT_E_07: TLS 1.0 on TLS-2", "rsa3072",
              ["-tls1", "-cipher", "RSA-PSK-AES256-CBC-SHA:@SECLEVEL=0"]),
    tls2_case("EID_CLIENT_E_07: TLS 1.1 on TLS-2", "rsa3072",
              ["-tls1_1", "-cipher", "RSA-PSK-AES256-CBC-SHA:@SECLEVEL=0"]),
    tls2_case("EID_CLIENT_E_10: foreign suites on TLS-2", "rsa3072",
              ["-tls1_2", "-cipher", "PSK-AES256-CBC-SHA:PSK-AES128-GCM-SHA256:DHE-PSK-AES256-GCM-SHA384:"
               "ECDHE-PSK-AES256-CBC-SHA384:RSA-PSK-NULL-SHA256:RSA-PSK-CAMELLIA256-SHA384:RSA-PSK-CHACHA20-POLY1305:"
               "RSA-PSK-3DES-EDE-CBC-SHA:@SECLEVEL=0"]),
    tls2_case("EID_CLIENT_E_11_a: SubjectAltName on TLS-2", "wrongsan", ["-tls1_2", "-cipher", TLS2_SUITES]),
    tls2_case("EID_CLIENT_E_11_b: common name on TLS-2", "wrongcn", ["-tls1_2", "-cipher", TLS2_SUITES]),
    tls2_case("EID_CLIENT_E_12: RSA 2048 on TLS-2", "rsa2048", ["-tls1_2", "-cipher", TLS2_SUITES]),
    tls2_case("EID_CLIENT_E_12: RSA 1024 on TLS-2", "rsa1024", ["-tls1_2", "-cipher", TLS2_SUITES + ":@SECLEVEL=0"]),
    tls2_case("EID_CLIENT_E_12: EC P-192 on TLS-2", "ec192",
              ["-tls1_2", "-cipher", TLS2_SUITES + ":ECDHE-PSK-AES128-CBC-SHA256:ECDHE-ECDSA-AES128-GCM-SHA256:"
               "@SECLEVEL=0"]),
]


# Where eid differs from AusweisApp2 as it runs here, on purpose: the fault, what eid must give instead
# (a case of its own, asserted on eid's side while AusweisApp2's side is asserted on the case above), and
# why. AusweisApp2 runs with pre-verification off (the test CVCA is none of its built-in ones), so only the
# card finds an expired AT or a forged DV (noPermission, after the PIN). With pre-verification on,
# AusweisApp's default and how eid always runs, StatePreVerification refuses the chain before the card
# (Workflow_Preverification_Error, il/signature#invalidCertificatePath; AusweisApp 2.5 source), as eid does.
PRE_VERIFICATION = ("refused in the pre-verification, before the card (as AusweisApp2 with it on); AusweisApp2 here "
                    "has it off: the card refuses (noPermission)")
EID_DIFFERENCES = {
    "expired_at": (refused_before_the_card("expired_at", "il/signature#invalidCertificatePath"), PRE_VERIFICATION),
    "dv_forged": (case("dv_forged", "error", "il/signature#invalidCertificatePath", asked=(), tr="B_24"),
                  PRE_VERIFICATION),
}


# Differences in what eid asks, found live, the rest of the case compared as usual: the fault, the rights eid
# leaves out of ACCESS_RIGHTS' chat.effective that AusweisApp2 shows there, those eid adds to chat.effective and
# chat.optional that AusweisApp2 does not show, and why.
CHAT_DIFFERENCES = {
    "chat_beyond_dv": ({"PlaceOfBirth"}, set(),
                       "difference found live: the AT's CHAT requires PlaceOfBirth, which its DV does not grant: "
                       "eid's ACCESS_RIGHTS leaves it out of effective (the chain's intersection; required still names "
                       "it), AusweisApp2 1.26.2 keeps it there and the card refuses the read; the same AUTH"),
    "eac1_no_chats": (set(), {"AgeVerification", "AddressVerification"},
                      "difference found live: EAC1 without RequiredCHAT and OptionalCHAT: eid offers all the AT "
                      "grants, AgeVerification and AddressVerification too; AusweisApp2 1.26.2 leaves those two out "
                      "(no AuxiliaryData in EAC1)"),
}


def chat_difference(expected, reference, candidate):
    """For a case of CHAT_DIFFERENCES: asserts that eid's ACCESS_RIGHTS chat lists are AusweisApp2's without the
    named rights, then takes the chat out of both views; returns the note (None for another case)."""
    if expected["fault"] not in CHAT_DIFFERENCES or expected["tls"]:
        return None
    removed, added, why = CHAT_DIFFERENCES[expected["fault"]]
    asks = [[m for m in seen["sdk"] if m.get("msg") == "ACCESS_RIGHTS"] for seen in (reference, candidate)]
    if len(asks[0]) != 1 or len(asks[1]) != 1:
        raise CaseFailed(f"ACCESS_RIGHTS: AusweisApp2 sent {len(asks[0])}, eid {len(asks[1])}, expected one each")
    theirs, ours = asks[0][0].pop("chat", {}), asks[1][0].pop("chat", {})
    for key in ("effective", "required", "optional"):
        mine = set(theirs.get(key, []))
        less = removed if key == "effective" else set()
        more = added if mine and key != "required" else set()
        want = sorted(mine - less | more)
        if ours.get(key) != want:
            raise CaseFailed(f"chat.{key}: eid {ours.get(key)}, expected AusweisApp2's {theirs.get(key)} without "
                             f"{sorted(removed)}, with {sorted(added)}")
    shown = set(theirs.get("effective", []))
    if removed - shown or added & shown:
        raise CaseFailed(f"AusweisApp2's chat.effective is no longer what the difference names: {sorted(shown)}")
    return why


def eid_expectation(expected):
    """(what eid must give, why it differs) for a case where eid differs from AusweisApp2 on purpose, else
    (None, None): eid must give what AusweisApp2 gives, compared live."""
    if expected["fault"] in EID_DIFFERENCES and not expected["tls"] and not expected["c3"]:
        return EID_DIFFERENCES[expected["fault"]]
    return None, None


class CaseFailed(PeerError):
    """A case that did not go as expected, after which AusweisApp2's workflow has ended: the
    next case can use the same AusweisApp2."""


class TestServer:
    """`eid-testserver serve --port 0` with fresh TLS credentials; stopped by its PID."""

    def __init__(self, bin_dir, args=()):
        self.process = subprocess.Popen(
            [os.path.join(bin_dir, "eid-testserver"), "serve", "--port", "0", *args],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        try:
            self.port = self._wait_for_port()
        except PeerError:
            self.stop()
            raise
        self.origin = f"https://127.0.0.1:{self.port}"
        self.tls = ssl.create_default_context()
        self.tls.check_hostname = False
        self.tls.verify_mode = ssl.CERT_NONE  # its self-signed certificate; /result is no secret

    def _wait_for_port(self, timeout=20.0):
        os.set_blocking(self.process.stdout.fileno(), False)
        deadline, text = time.monotonic() + timeout, ""
        while time.monotonic() < deadline:
            try:
                text += os.read(self.process.stdout.fileno(), 4096).decode(errors="replace")
            except BlockingIOError:
                pass
            if "\n" in text and "(port " in text:
                return int(text.split("(port ")[1].split(")")[0])
            if self.process.poll() is not None:
                raise PeerError(f"eid-testserver ended at start with status {self.process.returncode}")
            time.sleep(0.02)
        raise PeerError(f"eid-testserver printed no port within {timeout:.0f} s")

    def tctoken_url(self, fault):
        return self.origin + "/tctoken" + (f"?fault={fault}" if fault else "")

    def result(self, session=None):
        """GET /result: the last finished session's result, or that of `session`."""
        url = self.origin + "/result" + (f"?session={session}" if session else "")
        with urllib.request.urlopen(url, context=self.tls, timeout=10) as answer:
            return answer.read().decode()

    def stop(self):
        terminate(self.process)
        self.process.stdout.close()


def verified_certificates(card):
    """How many PSO:Verify Certificate eid-sim answered so far, and whether each with 9000."""
    card.trace.flush()
    card.trace.seek(0)
    lines = [line.strip() for line in card.trace if line.startswith("eid-sim: apdu ins=2A")]
    return len(lines), all(line.endswith("sw=9000") for line in lines)


async def authenticate(client, url, cancel_after_pin=False):
    """RUN_AUTH at `url` (None: a browser started the workflow, the client only answers):
    ACCEPT the access rights, the PIN when asked (with `cancel_after_pin`, CANCEL right after it);
    returns the final AUTH and the names of the questions asked. Anything else asked is answered
    with CANCEL, and the case fails once the workflow has ended."""
    if url:
        await client.send("RUN_AUTH", tcTokenURL=url)
    asked = []
    while True:
        message = await client.expect_any(CASE_TIMEOUT)
        name = message.get("msg")
        if name == "AUTH" and ("result" in message or "error" in message):
            return message, tuple(asked)
        if name == "ACCESS_RIGHTS":
            asked.append(name)
            await client.send("ACCEPT")
        elif name == "ENTER_PIN" and message.get("reader", {}).get("card", {}).get("retryCounter") == 3:
            asked.append(name)
            await client.send("SET_PIN", value=PIN)
            if cancel_after_pin:
                await client.send("CANCEL")
        elif name not in ("AUTH", "CERTIFICATE", "INFO"):
            await client.send("CANCEL")
            await client.expect("AUTH", timeout=15.0, ignore=("READER", "STATUS", "INSERT_CARD", name))
            raise CaseFailed(f"unexpected {name}: {strip(message)}")


def describe(fault, final, asked, result):
    """One line: what AusweisApp2 and the server ended with."""
    outcome = final.get("result", {})
    url = final.get("url")
    return (f"fault={fault or '-'}: major={outcome.get('major', '').removeprefix(MAJOR)} "
            f"minor={(outcome.get('minor') or '').removeprefix(MINOR) or '-'} url={url or '-'} asked={','.join(asked)}"
            f" | /result {result[:160]}")


def observe(transcript, asked, result, expected):
    """What a client gave in a case, as compared live (live_comparison): its SDK messages, the questions it
    answered and what the server's /result shows of its session (`Runner.session_result`; not for a case
    whose /result is "any")."""
    seen = dict(sdk=sdk_view(transcript), asked=list(asked))
    if result is not None and expected["result"] != "any":
        seen["result"] = normalise(result)
    return seen


def url_kind(url, origin):
    """Which of the TcToken's addresses `url` is (eid-testserver's RefreshAddress is
    ORIGIN/refresh?session=ID, its CommunicationErrorAddress the same with &error=communication)."""
    if not url:
        return NONE
    if re.fullmatch(re.escape(origin) + r"/refresh(\?session=[0-9a-f]+)?", url):
        return REFRESH
    if re.fullmatch(re.escape(origin) + r"/refresh\?session=[0-9a-f]+&error=communication", url):
        return COMMUNICATION_ERROR
    return url


def check(expected, final, asked, result, previous, origin, side="AusweisApp2"):
    """Raises PeerError unless the final AUTH of the client (`side`), the questions it asked and the
    server's /result (and the one before this case, `previous`) are what `expected` says."""
    outcome = final.get("result", {})
    got = (outcome.get("major", "").removeprefix(MAJOR), (outcome.get("minor") or "").removeprefix(MINOR) or None)
    if got != (expected["major"], expected["minor"]):
        raise CaseFailed(f"AUTH result {got[0]}/{got[1]}, expected {expected['major']}/{expected['minor']}: "
                        f"{outcome.get('message') or outcome.get('description')}")
    if url_kind(final.get("url"), origin) != expected["url"]:
        raise CaseFailed(f"AUTH url {final.get('url')!r}, expected the {expected['url']} address")
    if asked != expected["asked"]:
        raise CaseFailed(f"{side} asked {list(asked)}, expected {list(expected['asked'])}")
    if expected["result"] == "any":
        pass
    elif expected["result"] == "unchanged":
        if result != previous:
            raise CaseFailed(f"/result changed, but the client should not have reached PAOS: {result[:300]}")
    elif expected["result"] == "ok":
        if not result.startswith('{"ok":true') or GIVEN_NAMES not in result:
            raise CaseFailed(f"/result does not show ok:true with the sample data: {result[:300]}")
    elif not result.startswith('{"ok":false'):
        raise CaseFailed(f"/result does not show ok:false: {result[:300]}")
    if expected["reason"] and f'"reason":"{expected["reason"]}"' not in result:
        raise CaseFailed(f"/result does not name the reason {expected['reason']}: {result[:600]}")


class Runner:
    """One client through the cases: AusweisApp2 (pre-verification off), or `eid serve` of `eid_dir`
    over the same SDK (with `serve_arguments`). `run_case` returns what the client gave (`observe`);
    with `judged`, it first asserts that on the case's expectation (`check`)."""

    def __init__(self, bin_dir, probe, eid_dir=None):
        self.bin_dir = bin_dir
        self.probe = probe
        self.eid_dir = eid_dir
        self.side = "eid" if eid_dir else "AusweisApp2"
        self.serve_arguments = ()
        self.judged = not eid_dir
        self.reader, self.port = env_readers()[0]
        self.app = self.client = self.card = self.server = self.shared = None
        self.pin_to_auth = []
        self.log_offset = 0
        self.tls_pki = None
        self.c3_dir = None
        self.tls2_dir = self.tls2_server = self.tls2_port = None

    async def start_app(self):
        if self.eid_dir:
            self.app = EidServe(self.eid_dir, self.serve_arguments, test_pki=not self.serve_arguments)
        else:
            self.app = AusweisApp2(settings=NO_PREVERIFICATION)
        self.client = await SDKClient.connect(self.app.url)
        await self.client.wait_for_reader(self.reader, has_card=True)

    async def stop_app(self):
        if self.client:
            try:
                await asyncio.wait_for(self.client.close(), 5)
            except Exception:
                pass
        if self.app:
            self.app.stop()
        self.app = self.client = None

    async def run_case(self, expected):
        if expected["tls2"]:
            return await self.run_tls2_case(expected)
        previous = self.server.result()
        before = verified_certificates(self.card)[0] if expected["c3"] else 0
        final, asked = await authenticate(self.client, self.server.tctoken_url(expected["fault"]),
                                          expected.get("cancel_after_pin", False))
        result = self.server.result()
        if self.probe:
            print("  " + describe(expected["fault"], final, asked, result))
            if "SET_PIN" in self.client.last_sent:
                print(f"  SET_PIN -> AUTH {final['_at'] - self.client.last_sent['SET_PIN']:.3f} s")
            print("  SDK transcript:\n    " + "\n    ".join(self.client.transcript))
            print("  AusweisApp2 log of this case:\n" + self.app.log_since(self.log_offset, SECRETS))
            return
        if self.judged:
            check(expected, final, asked, result, previous, self.server.origin, self.side)
        seen = observe(self.client.transcript, asked, self.session_result(final, result, previous), expected)
        if expected["c3"]:
            count, all_ok = verified_certificates(self.card)
            c3 = expected["c3"]
            cars = json.loads(result).get("certificationAuthorityReferences")
            seen.update(verified=count - before, verified_all_9000=all_ok, cars=cars)
            if self.judged and (count - before != c3["verified"] or not all_ok):
                raise CaseFailed(f"the card verified {count - before} certificates (all 9000: {all_ok}), "
                                 f"expected {c3['verified']}")
            if self.judged and cars != c3["cars"]:
                raise CaseFailed(f"{self.side} named the CARs {cars}, expected {c3['cars']}")
        if "SET_PIN" in self.client.last_sent and expected["major"] == "ok" and expected["fault"] != "slow":
            self.pin_to_auth.append(final["_at"] - self.client.last_sent["SET_PIN"])
        return seen

    def session_result(self, final, result, previous):
        """The server's /result of the client's own session, by the session id of the AUTH's url (two
        clients in a row may leave the same text at /result); without one in the url, "unchanged" when the
        last finished session is still the one before, else that."""
        session = re.search(r"[?&]session=([0-9a-f]+)", final.get("url") or "")
        if session:
            try:
                return json.loads(self.server.result(session.group(1)))
            except (OSError, ValueError) as error:  # no such session finished
                return f"no /result of the session: {type(error).__name__}"
        return "unchanged" if result == previous else json.loads(result)

    def tls_pki_dir(self):
        """The directory of tls-test-pki.sh's certificates (made once per run)."""
        if self.tls_pki is None:
            self.tls_pki = tempfile.mkdtemp(prefix="eid-aa2-tls-")
            subprocess.run([os.path.join(os.path.dirname(os.path.abspath(__file__)), "tls-test-pki.sh"),
                            self.tls_pki], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return self.tls_pki

    def tls_server(self, name):
        """A server of its own serving the chain `name` of tls-test-pki.sh (made once per run)."""
        self.tls_pki_dir()
        served = os.path.join(self.tls_pki, f"{name}-served.pem")
        with open(served, "w") as out:
            for part in (f"{name}.pem", f"{name}-chain.pem"):
                with open(os.path.join(self.tls_pki, part)) as text:
                    out.write(text.read())
        return TestServer(self.bin_dir, ["--tls-certificate", served,
                                         "--tls-key", os.path.join(self.tls_pki, f"{name}.key")])

    async def run_tls2_case(self, expected):
        """A TLS-2 case: the shared server stays unused, s_server gets the TLS-2 connection."""
        previous = self.server.result()
        tokens_origin, port = self.tls2_tokens()
        log = os.path.join(self.tls2_dir, "s_server.log")
        with open(log, "w") as out:
            s_server = subprocess.Popen(
                ["openssl", "s_server", "-accept", "127.0.0.1:0", "-state", "-www",
                 "-cert", os.path.join(self.tls2_dir, expected["tls2"]["certificate"] + ".pem"),
                 "-key", os.path.join(self.tls2_dir, expected["tls2"]["certificate"] + ".key"),
                 "-psk", TLS2_PSK, "-psk_identity", TLS2_SESSION, *expected["tls2"]["options"]],
                stdin=subprocess.DEVNULL, stdout=out, stderr=out)
        try:
            s_port = None
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                text = open(log).read()
                found = re.search(r"ACCEPT", text)
                if found:
                    s_port = self.listening_port(s_server.pid)
                    if s_port:
                        break
                time.sleep(0.05)
            if not s_port:
                raise CaseFailed(f"s_server did not start: {open(log).read()}")
            url = f"{tokens_origin}/tctoken-psk?server={s_port}"
            final, asked = await authenticate(self.client, url)
            # s_server may log the connection after the client's answer came: wait for it (at most 30 s).
            deadline = time.monotonic() + 30
            while "SSL_accept:before SSL initialization" not in (seen := open(log).read()):
                if time.monotonic() > deadline:
                    break
                time.sleep(0.05)
        finally:
            terminate(s_server)
        if self.probe:
            print("  " + describe(expected["tls2"]["name"], final, asked, ""))
            print("  s_server:\n    " + "\n    ".join(seen.splitlines()[-8:]))
            return
        if "SSL_accept:before SSL initialization" not in seen:
            raise CaseFailed(f"s_server saw no connection from {self.side}: {seen}")
        if self.judged:
            check(expected, final, asked, self.server.result(), previous, tokens_origin, self.side)
        return observe(self.client.transcript, asked, None, expected)

    @staticmethod
    def listening_port(pid):
        """The TCP port process `pid` listens on (from /proc), or None."""
        inodes = set()
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
        except OSError:
            return None
        with open("/proc/net/tcp") as table:
            for line in table.readlines()[1:]:
                fields = line.split()
                if fields[3] == "0A" and fields[9] in inodes:
                    return int(fields[1].split(":")[1], 16)
        return None

    def tls2_tokens(self):
        """https_test_server.py serving /tctoken-psk (started once), and the TLS-2 certificates."""
        if self.tls2_dir is None:
            self.tls2_dir = tempfile.mkdtemp(prefix="eid-aa2-tls2-")
            for name, (key, subject, extension) in TLS2_CERTIFICATES.items():
                command = ["openssl", "req", "-x509", *key, "-nodes", "-days", "2", "-subj", subject, "-keyout", os.path.join(self.tls2_dir, name + ".key"),
                           "-out", os.path.join(self.tls2_dir, name + ".pem")]
                if extension:
                    command += ["-addext", extension]
                subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            cert, key = (os.path.join(self.tls2_dir, "rsa3072" + end) for end in (".pem", ".key"))
            self.tls2_server = subprocess.Popen(
                [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "https_test_server.py"),
                 cert, key, cert, key], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            words = self.tls2_server.stdout.readline().decode().split()
            if len(words) != 3 or words[0] != "PORTS":
                raise CaseFailed(f"https_test_server.py said {words}")
            self.tls2_port = int(words[1])
        return f"https://127.0.0.1:{self.tls2_port}", self.tls2_port

    async def c3_setup(self, c3):
        """A server of its own for the C3 case and, unless the case goes on with the card before, a fresh
        eid-sim trusting the case's generations."""
        self.server = TestServer(self.bin_dir, ["--cvca-generation", str(c3["newest"]),
                                                "--eac1-links-from", str(c3["eac1_from"])])
        if c3["card"] is None:
            return
        if self.c3_dir is None:
            self.c3_dir = tempfile.mkdtemp(prefix="eid-aa2-c3-")
        arguments = []
        for generation in c3["card"]:
            path = os.path.join(self.c3_dir, f"cvca-{generation}.cvcert")
            subprocess.run([os.path.join(self.bin_dir, "eid-test-pki"), "cvca", "--generation", str(generation),
                            "--output", path], check=True)
            arguments += ["--cvca", path]
        self.card.stop()
        if self.client:
            await self.client.wait_for_reader(self.reader, has_card=False)
        self.card = SoftwareCard(self.bin_dir, self.port, arguments)
        if self.client:
            await self.client.wait_for_reader(self.reader, has_card=True)

    async def prepare(self, expected):
        if expected["tls"]:
            self.server = self.tls_server(expected["tls"])
        if expected["c3"]:
            await self.c3_setup(expected["c3"])
        if self.app is None:
            await self.start_app()
        self.log_offset = self.app.log_size()
        self.client.transcript.clear()
        self.client.last_sent.clear()

    async def report(self, expected, error):
        if self.client:
            print("  SDK transcript:\n    " + "\n    ".join(self.client.transcript))
        if self.app:
            print("  AusweisApp2 log of this case:")
            print(self.app.log_since(self.log_offset, SECRETS))
        if not isinstance(error, CaseFailed):
            await self.stop_app()  # the workflow may still run: a fresh AusweisApp2

    async def finish(self, expected):
        if self.server is not self.shared:
            self.server.stop()
            self.server = self.shared

    @staticmethod
    def name(expected):
        if expected["c3"]:
            return expected["c3"]["name"] + " (auth)"
        if expected["tls2"]:
            return expected["tls2"]["name"] + " (auth)"
        return tr_prefix(expected) + "auth, " + (f"TLS chain {expected['tls']}" if expected["tls"]
                                                 else expected["fault"] or "no fault")

    async def main(self, cases):
        # One server for all cases; `slow` delays each PAOS answer by 1 s (default 3).
        shared = self.server = self.shared = TestServer(self.bin_dir, ["--slow-delay", "1"])
        try:
            self.card = SoftwareCard(self.bin_dir, self.port)
            passed, failed = await run_cases([(self.name(expected), expected) for expected in cases], self.run_case,
                                             CASE_TIMEOUT + 15, prepare=self.prepare, report=self.report,
                                             finish=self.finish)
        finally:
            await self.stop_app()
            if self.card:
                self.card.stop()
            shared.stop()
            if self.tls_pki:
                shutil.rmtree(self.tls_pki, ignore_errors=True)
            if self.c3_dir:
                shutil.rmtree(self.c3_dir, ignore_errors=True)
            if self.tls2_server:
                terminate(self.tls2_server)
                self.tls2_server.stdout.close()
            if self.tls2_dir:
                shutil.rmtree(self.tls2_dir, ignore_errors=True)
        if self.pin_to_auth:
            times = sorted(self.pin_to_auth)
            print(f"AusweisApp2 SET_PIN -> AUTH (ok) against eid-testserver: median {times[len(times) // 2]:.2f} s, "
                  f"{times[0]:.2f}-{times[-1]:.2f} s over {len(times)} authentications")
        return passed, failed



class LiveRunner:
    """AusweisApp2 and eid through every case in one pass: both clients up for the whole run (one
    AusweisApp2, one `eid serve` over the same SDK), one eid-testserver, one eid-sim card. Each case runs on
    AusweisApp2 (asserted on the case's expectation), then on eid, whose observation must equal AusweisApp2's
    (live_comparison); where eid differs on purpose (EID_DIFFERENCES) each side is asserted on its own known
    behaviour and the case says why. A case that moves the card's trust point (`fresh_card`: the CVCA link
    cases; the C3 cases, each with a card of its own) gets a fresh card before each side, so that both start
    from the same card state; a C3 case that goes on with the card before takes it as the other side left it."""

    name = staticmethod(Runner.name)
    print_summary = True

    def __init__(self, bin_dir, aa2=None, eid=None):
        self.bin_dir = bin_dir
        self.aa2 = aa2 or Runner(bin_dir, False)
        self.eid = eid or Runner(bin_dir, False, eid_dir=bin_dir)
        self.sides = (self.aa2, self.eid)
        self.tally = Tally()
        self.card_arguments = []
        self.own_server = None
        self.c3_dir = None

    async def replace_card(self, arguments):
        """A fresh eid-sim with `arguments` in the reader, seen by both clients. Both read a card that
        comes (its retry counter) and would do so at the same time, disturbing each other's APDUs: `eid
        serve` is stopped meanwhile and started again once AusweisApp2 has seen the card."""
        await self.eid.stop_app()
        self.aa2.card.stop()
        if self.aa2.client:
            await self.aa2.client.wait_for_reader(self.aa2.reader, has_card=False)
        card = SoftwareCard(self.bin_dir, self.aa2.port, arguments)
        for side in self.sides:
            side.card = card
        if self.aa2.client:
            await self.aa2.client.wait_for_reader(self.aa2.reader, has_card=True)
        await self.eid.start_app()
        self.eid.log_offset = 0

    def c3_arguments(self, c3):
        """eid-sim's --cvca options for a C3 case's card (the current trust point first)."""
        arguments = []
        for generation in c3["card"]:
            arguments += ["--cvca", self.cvca_file(generation)]
        return arguments

    def cvca_file(self, generation):
        """The test CVCA of `generation` (`eid-test-pki cvca`), made once per run."""
        if self.c3_dir is None:
            self.c3_dir = tempfile.mkdtemp(prefix="eid-live-c3-")
        path = os.path.join(self.c3_dir, f"cvca-{generation}.cvcert")
        if not os.path.exists(path):
            subprocess.run([os.path.join(self.bin_dir, "eid-test-pki"), "cvca", "--generation", str(generation),
                            "--output", path], check=True)
        return path

    async def prepare(self, expected):
        self.own_server = None
        if expected["tls"]:
            self.own_server = self.aa2.tls_server(expected["tls"])
        if expected["c3"]:
            c3 = expected["c3"]
            self.own_server = TestServer(self.bin_dir, ["--cvca-generation", str(c3["newest"]),
                                                        "--eac1-links-from", str(c3["eac1_from"])])
        for side in self.sides:
            side.server = self.own_server or side.shared
        # eid pre-verifies every chain: in a C3 case it trusts CVCA_b, where the server's chain for
        # pre-verification starts (as ConformanceC3Tests runs it), and nothing else.
        arguments = ("--trust-cvca", self.cvca_file(expected["c3"]["eac1_from"])) if expected["c3"] else ()
        if self.eid.app and tuple(self.eid.serve_arguments) != arguments:
            await self.eid.stop_app()
        self.eid.serve_arguments = arguments
        if expected["tls2"]:  # one https_test_server.py for both sides
            self.aa2.tls2_tokens()
            self.eid.tls2_dir, self.eid.tls2_port = self.aa2.tls2_dir, self.aa2.tls2_port
        for side in self.sides:
            await side.prepare(dict(expected, tls=None, c3=None))

    def fresh_card(self, expected):
        """The card arguments a case starts each side with (None: the card as it is)."""
        if expected["c3"]:
            return self.c3_arguments(expected["c3"]) if expected["c3"]["card"] is not None else None
        return [] if expected["fault"] in MOVE_THE_TRUST_POINT else None

    async def run(self, expected):
        fresh = self.fresh_card(expected)
        if fresh is not None:
            await self.replace_card(fresh)
        reference = await self.aa2.run_case(expected)
        own, why = eid_expectation(expected)
        if fresh is not None:
            await self.replace_card(fresh)
        self.eid.judged = own is not None
        candidate = await self.eid.run_case(own or expected)
        if own is not None:
            self.tally.different.append(expected)
            return "expected difference: " + why
        notes, found = field_differences(reference["sdk"], candidate["sdk"])
        self.tally.fields.update(notes)
        why = chat_difference(expected, reference, candidate)
        found += differences(reference, candidate)
        if found:
            raise CaseFailed("eid differs from AusweisApp2: " + "; ".join(found[:6]))
        if why:
            self.tally.different.append(expected)
            return f"compared live but the chat: {summary(reference)}; expected difference: {why}"
        self.tally.live.append(expected)
        return "compared live: " + summary(reference)

    async def report(self, expected, error):
        for side in self.sides:
            if side.client:
                print(f"  {side.side}'s SDK transcript:\n    " + "\n    ".join(side.client.transcript))
        if self.aa2.app:
            print("  AusweisApp2 log of this case:")
            print(self.aa2.app.log_since(self.aa2.log_offset, SECRETS)[-20000:])
        if self.eid.app:
            print("  eid serve's output of this case:")
            print(self.eid.app.log_since(self.eid.log_offset, SECRETS)[-5000:])
        if not isinstance(error, CaseFailed):
            for side in self.sides:
                await side.stop_app()  # a workflow may still run: fresh clients

    async def finish(self, expected):
        if self.own_server:
            self.own_server.stop()
            self.own_server = None
        for side in self.sides:
            side.server = side.shared

    async def main(self, cases):
        print_normalisations()
        # One server for all cases; `slow` delays each PAOS answer by 1 s (default 3).
        shared = TestServer(self.bin_dir, ["--slow-delay", "1"])
        for side in self.sides:
            side.server = side.shared = shared
        try:
            card = SoftwareCard(self.bin_dir, self.aa2.port)
            for side in self.sides:
                side.card = card
            # Two clients, one after the other, in each case.
            passed, failed = await run_cases([(self.name(expected), expected) for expected in cases], self.run,
                                             2 * (CASE_TIMEOUT + 15), prepare=self.prepare, report=self.report,
                                             finish=self.finish)
        finally:
            for side in self.sides:
                await side.stop_app()
            self.aa2.card.stop()
            shared.stop()
            for directory in (self.aa2.tls_pki, self.c3_dir, self.aa2.tls2_dir):
                if directory:
                    shutil.rmtree(directory, ignore_errors=True)
            if self.aa2.tls2_server:
                terminate(self.aa2.tls2_server)
                self.aa2.tls2_server.stdout.close()
        for side in self.sides:
            if side.pin_to_auth:
                times = sorted(side.pin_to_auth)
                print(f"{side.side} SET_PIN -> AUTH (ok) against eid-testserver: "
                      f"median {times[len(times) // 2]:.2f} s, "
                      f"{times[0]:.2f}-{times[-1]:.2f} s over {len(times)} authentications")
        if self.print_summary:
            print(self.tally.summary(len(cases)))
        return passed, failed


# The faults whose EAC1 carries a CVCA link certificate that moves a default card's trust point on.
MOVE_THE_TRUST_POINT = ("cvca_link", "cvca_link,certificates_reversed")


def summary(seen):
    """What both clients gave, in a few words: the final AUTH's major/minor."""
    final = next((m for m in reversed(seen["sdk"]) if m.get("msg") == "AUTH" and "result" in m), {})
    outcome = final.get("result", {})
    minor = (outcome.get("minor") or "").removeprefix(MINOR)
    return outcome.get("major", "?").removeprefix(MAJOR) + (f" {minor}" if minor else "")


def main():
    runner = None

    async def run(arguments):
        nonlocal runner
        probe = arguments[1:]
        if probe in (["c3"], ["tls2"]):  # the C3 or the TLS-2 cases alone, asserted
            probe, cases = [], [expected for expected in CASES if expected[arguments[1]]]
        else:
            cases = [case(None, "?", tls=name[4:]) if name.startswith("tls:")
                     else case(None if name == "-" else name, "?") for name in probe] if probe else CASES
        runner = Runner(arguments[0], True) if probe else LiveRunner(arguments[0])
        return await runner.main(cases)

    def cleanup():
        for side in (runner.sides if isinstance(runner, LiveRunner) else [runner] if runner else []):
            if side.app:
                side.app.stop()

    run_main("ausweisapp2_auth_peer_tests.py BIN_DIR [FAULT...]",
             "AusweisApp2 peer tests (RUN_AUTH with eid-sim through pcscd against eid-testserver)", run, cleanup,
             more_arguments=True)


if __name__ == "__main__":
    main()
