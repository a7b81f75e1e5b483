#!/usr/bin/python3
"""Runs Debian's vsmartcard emulator (`vicc`, packages vsmartcard-vpicc and
python3-virtualsmartcard) unmodified, as an independent nPA for eid's peer tests.

    run-vicc.py --type nPA --hostname 127.0.0.1 --port PORT [other vicc options]

What this launcher adds around /usr/bin/vicc, and nothing else:
  - `eac` and `chat`: the OpenPACE Python modules nPA.py imports, which Debian does not
    package, provided by eid's own adapter over Debian's libeac (eac.py, chat.py beside this).
    Its EAC_Comp gives the x-coordinate at field length (libeac's drops leading zero bytes).
  - The import path: Debian installs the library under
    /usr/lib/python3/site-packages/virtualsmartcard/, which is not on Python's path.
  - `Crypto`: the emulator imports PyCrypto's names; Debian's python3-pycryptodome offers the
    same modules as `Cryptodome`, and this maps one name onto the other.
  - Python 3 adjustments (see python3_adjustments below): wrappers around helper functions in
    utils.py, CryptoUtils.py, TLVutils.py, one constructor default in SEutils.py and the empty
    answer of nPA.py's verify_certificate, where the Python 2 code used one type for text and
    bytes. None changes a byte the card computes.
The emulator's card logic and its secure messaging (nPA.py, SmartcardSAM.py, SEutils.py:
parsing of the SM data objects, the MAC input and its check, encryption of responses) run as
shipped.
"""

import importlib
import importlib.abc
import importlib.util
import os
import runpy
import signal
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VICC = "/usr/bin/vicc"
LIBRARY = "/usr/lib/python3/site-packages/virtualsmartcard"


class CryptoAsCryptodome(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports `Crypto.X` as Debian's `Cryptodome.X` (the same library, pycryptodome)."""

    def find_spec(self, name, path=None, target=None):
        if name == "Crypto" or name.startswith("Crypto."):
            return importlib.util.spec_from_loader(name, self, is_package=True)
        return None

    def create_module(self, spec):
        return importlib.import_module("Cryptodome" + spec.name[len("Crypto"):])

    def exec_module(self, module):
        pass


def as_bytes(value):
    return value.encode("utf-8") if isinstance(value, str) else value


def python3_adjustments():
    """Small runtime adjustments for Python 2 code paths that break under Python 3. They run
    before the emulator's other modules are imported, so that their `from ... import` names
    bind to the adjusted functions."""
    from virtualsmartcard import utils

    # utils.stringtoint reads a big-endian number from a byte string. Python 2 code hands it one
    # byte as value[0], a 1-character string; in Python 3 that is already an int, which it
    # cannot iterate. An int is that byte's value. (SEutils reads the padding indicator of
    # DO'87 and the lengths of its MSE configuration this way.)
    original_stringtoint = utils.stringtoint

    def stringtoint(data):
        return data if isinstance(data, int) else original_stringtoint(data)

    utils.stringtoint = stringtoint

    # APDU.data (C_APDU, R_APDU) accepts text as Python 2 did, but joins its characters as if
    # they were bytes, which fails for anything but "". Text given to it is one character per
    # byte (latin-1), as Python 2 strings were: it stores those bytes.
    original_data = utils.APDU.data

    def set_data(self, value):
        original_data.fset(self, value.encode("latin-1") if isinstance(value, str) else value)

    utils.APDU.data = property(original_data.fget, set_data, original_data.fdel, original_data.__doc__)

    from virtualsmartcard import CryptoUtils

    # SEutils.parse_SM_CAPDU collects a command's decrypted data in a list that starts with the
    # text "" and joins it with "".join, which Python 3 refuses for bytes. CryptoUtils'
    # strip_padding (its only user) hands it the decrypted, unpadded data: it gives those bytes
    # as text, one character per byte (latin-1), so the join works, and the APDU.data setter
    # above turns them back into the same bytes. The secure messaging code itself (DO parsing,
    # MAC input and check, decryption) runs unchanged; no byte it computes over changes.
    original_strip_padding = CryptoUtils.strip_padding

    def strip_padding(blocklen, data, padding_class=0x01):
        plain = original_strip_padding(blocklen, data, padding_class)
        return plain.decode("latin-1") if isinstance(plain, bytes) else plain

    CryptoUtils.strip_padding = strip_padding

    from virtualsmartcard import SEutils, TLVutils

    # ControlReferenceTemplate keeps its MSE configuration as text ("") and appends bytes to it
    # (tag, length, value) on MSE:Set AT. It starts as b"" instead.
    original_crt_init = SEutils.ControlReferenceTemplate.__init__

    def crt_init(self, tag, config=""):
        original_crt_init(self, tag, b"" if config == "" else config)

    SEutils.ControlReferenceTemplate.__init__ = crt_init

    # TLVutils.pack cannot work under Python 3: it ends with b"".join over a bytes object (its
    # ints), and walks a text value as if it were a nested TLV list. CardGenerator builds the
    # card's data groups with it from text (DocumentType, names, dates, ...). This is the same
    # encoding written for Python 3 (ISO/IEC 7816-4 BER-TLV: tag bytes, short or long length,
    # value; the filler tags 00 and FF stand alone), with text packed as its UTF-8 bytes.
    # The nPA's secure messaging does not use pack (nPA.py builds its objects with bertlv_pack).
    def pack(tlv_data, recalculate_length=False):
        result = b""
        for item in tlv_data:
            tag, length, value = item[:3]
            if tag in (0x00, 0xFF):
                result += bytes([tag])
                continue
            value = as_bytes(value)
            if not isinstance(value, bytes):
                value = pack(value, recalculate_length)
            if recalculate_length:
                length = len(value)
            tag_bytes = tag.to_bytes(max(1, (tag.bit_length() + 7) // 8), "big")
            if length < 0x80:
                length_bytes = bytes([length])
            else:
                count = (length.bit_length() + 7) // 8
                length_bytes = bytes([0x80 | count]) + length.to_bytes(count, "big")
            result += tag_bytes + length_bytes + value
        return result

    TLVutils.pack = pack

    from virtualsmartcard.cards import nPA

    # Security_Environment.perform_security_operation asserts that a verifying operation (P1 00,
    # e.g. PSO:Verify Certificate in Terminal Authentication) answers no data with
    # `response_data == ""`; nPA.py's verify_certificate answers b"", which Python 3 does not
    # take for "". The certificate is imported and checked by libeac as before; no data is
    # answered either way (the APDU.data setter above turns "" into b"").
    original_verify_certificate = nPA.nPA_SE.verify_certificate

    def verify_certificate(self, p1, p2, data):
        answer = original_verify_certificate(self, p1, p2, data)
        return "" if answer == b"" else answer

    nPA.nPA_SE.verify_certificate = verify_certificate


def main():
    # A parent may start us with signals blocked (a test runner's threads do); vicc has no
    # handlers of its own, so SIGTERM and SIGINT must reach Python's defaults to end it.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT, signal.SIGHUP})
    sys.path[:0] = [HERE, LIBRARY]
    try:
        importlib.import_module("Crypto.Cipher.AES")
    except ImportError:
        sys.meta_path.insert(0, CryptoAsCryptodome())
    python3_adjustments()
    sys.argv = [VICC] + sys.argv[1:]
    runpy.run_path(VICC, run_name="__main__")


if __name__ == "__main__":
    main()
