"""The `eac` module that vsmartcard's nPA emulator imports, as a small ctypes adapter over
Debian's libeac (OpenPACE's C library, package libeac3).

Debian packages the emulator (vsmartcard-vpicc, python3-virtualsmartcard) but not OpenPACE's
Python bindings. This module is written for eid's tests from the C headers in
/usr/include/eac/*.h and offers only the calls that virtualsmartcard/cards/nPA.py makes on the
card side of PACE (with MRZ, CAN, PIN or PUK), Terminal Authentication (the CVCA given with
vicc's --cvca as trust anchor, the certificate chain, the challenge, the signature check) and
Chip Authentication (with the key of --ca-key), then secure messaging. The calling
convention is the one nPA.py expects: byte strings in, byte strings out; a failed call returns
None (for data) or 0 (for a status).

All cryptography happens in libeac: PACE, the KDF, AES encryption and the CMAC. The emulator's
own Python code (nPA.py, SmartcardSAM.py, SEutils.py) builds and checks the secure messaging
objects, which is what makes it an independent peer for eid's terminal.
"""

import ctypes
import ctypes.util
import sys

_lib = ctypes.CDLL(ctypes.util.find_library("eac") or "libeac.so.3")
_crypto = ctypes.CDLL(ctypes.util.find_library("crypto") or "libcrypto.so.3")

# enum s_type (pace.h) and the context ids of EAC_CTX_set_encryption_ctx (eac.h).
PACE_MRZ = 1
PACE_CAN = 2
PACE_PIN = 3
PACE_PUK = 4
PACE_RAW = 5
PACE_SEC_UNDEF = 6
EAC_ID_PACE = 0
EAC_ID_CA = 1
EAC_ID_TA = 2
EAC_ID_EAC = 3


class _BUF_MEM(ctypes.Structure):
    """OpenSSL's BUF_MEM (openssl/buffer.h)."""

    _fields_ = [
        ("length", ctypes.c_size_t),
        ("data", ctypes.c_void_p),
        ("max", ctypes.c_size_t),
        ("flags", ctypes.c_ulong),
    ]


_PTR = ctypes.c_void_p
_BUF = ctypes.POINTER(_BUF_MEM)


def _declare(name, restype, *argtypes):
    function = getattr(_lib, name)
    function.restype = restype
    function.argtypes = list(argtypes)
    return function


_BUF_MEM_create_init = _declare("BUF_MEM_create_init", _BUF, ctypes.c_char_p, ctypes.c_size_t)
_BUF_MEM_clear_free = _declare("BUF_MEM_clear_free", None, _BUF)
_EAC_init = _declare("EAC_init", None)
_EAC_CTX_new = _declare("EAC_CTX_new", _PTR)
_EAC_CTX_clear_free = _declare("EAC_CTX_clear_free", None, _PTR)
_EAC_CTX_init_ef_cardsecurity = _declare(
    "EAC_CTX_init_ef_cardsecurity", ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t, _PTR)
_EAC_CTX_set_encryption_ctx = _declare("EAC_CTX_set_encryption_ctx", ctypes.c_int, _PTR, ctypes.c_int)
_EAC_increment_ssc = _declare("EAC_increment_ssc", ctypes.c_int, _PTR)
_EAC_encrypt = _declare("EAC_encrypt", _BUF, _PTR, _BUF)
_EAC_decrypt = _declare("EAC_decrypt", _BUF, _PTR, _BUF)
_EAC_authenticate = _declare("EAC_authenticate", _BUF, _PTR, _BUF)
_CA_disable_passive_authentication = _declare("CA_disable_passive_authentication", None, _PTR)
_CA_get_pubkey = _declare("CA_get_pubkey", _BUF, _PTR, ctypes.c_char_p, ctypes.c_size_t)
_CA_set_key = _declare(
    "CA_set_key", ctypes.c_int, _PTR, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t)
_CA_STEP2_get_eph_pubkey = _declare("CA_STEP2_get_eph_pubkey", _BUF, _PTR)
_TA_STEP3_generate_ephemeral_key = _declare("TA_STEP3_generate_ephemeral_key", _BUF, _PTR)
_EAC_CTX_init_ta = _declare(
    "EAC_CTX_init_ta", ctypes.c_int, _PTR, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t)
_TA_disable_checks = _declare("TA_disable_checks", None, _PTR)
_TA_STEP2_import_certificate = _declare(
    "TA_STEP2_import_certificate", ctypes.c_int, _PTR, ctypes.c_char_p, ctypes.c_size_t)
_TA_STEP4_get_nonce = _declare("TA_STEP4_get_nonce", _BUF, _PTR)
_TA_STEP6_verify = _declare("TA_STEP6_verify", ctypes.c_int, _PTR, _BUF, _BUF, _BUF, _BUF)
_EAC_Comp = _declare("EAC_Comp", _BUF, _PTR, ctypes.c_int, _BUF)
_CA_STEP4_compute_shared_secret = _declare("CA_STEP4_compute_shared_secret", ctypes.c_int, _PTR, _BUF)
_CA_STEP5_derive_keys = _declare(
    "CA_STEP5_derive_keys", ctypes.c_int, _PTR, _BUF, ctypes.POINTER(_BUF), ctypes.POINTER(_BUF))
_PACE_SEC_new = _declare("PACE_SEC_new", _PTR, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int)
_PACE_SEC_clear_free = _declare("PACE_SEC_clear_free", None, _PTR)
_PACE_STEP1_enc_nonce = _declare("PACE_STEP1_enc_nonce", _BUF, _PTR, _PTR)
_PACE_STEP3A_generate_mapping_data = _declare("PACE_STEP3A_generate_mapping_data", _BUF, _PTR)
_PACE_STEP3A_map_generator = _declare("PACE_STEP3A_map_generator", ctypes.c_int, _PTR, _BUF)
_PACE_STEP3B_generate_ephemeral_key = _declare("PACE_STEP3B_generate_ephemeral_key", _BUF, _PTR)
_PACE_STEP3B_compute_shared_secret = _declare("PACE_STEP3B_compute_shared_secret", ctypes.c_int, _PTR, _BUF)
_PACE_STEP3C_derive_keys = _declare("PACE_STEP3C_derive_keys", ctypes.c_int, _PTR)
_PACE_STEP3D_compute_authentication_token = _declare(
    "PACE_STEP3D_compute_authentication_token", _BUF, _PTR, _BUF)
_PACE_STEP3D_verify_authentication_token = _declare(
    "PACE_STEP3D_verify_authentication_token", ctypes.c_int, _PTR, _BUF)

_ERR_get_error = _crypto.ERR_get_error
_ERR_get_error.restype = ctypes.c_ulong
_ERR_get_error.argtypes = []
_ERR_error_string_n = _crypto.ERR_error_string_n
_ERR_error_string_n.restype = None
_ERR_error_string_n.argtypes = [ctypes.c_ulong, ctypes.c_char_p, ctypes.c_size_t]


def _bytes(value):
    if value is None:
        return b""
    if isinstance(value, str):
        # nPA.py passes its secrets as bytes; a str here would be a bug of the caller.
        raise TypeError("eac adapter: expected bytes, got str")
    return bytes(value)


def _buffer(value):
    """A new BUF_MEM holding `value`; the caller frees it with _free."""
    data = _bytes(value)
    buffer = _BUF_MEM_create_init(data, len(data))
    if not buffer:
        raise MemoryError("BUF_MEM_create_init")
    return buffer


def _free(buffer):
    if buffer:
        _BUF_MEM_clear_free(buffer)


def _take(buffer):
    """The bytes of a BUF_MEM the caller owns, which is wiped and freed; None for NULL."""
    if not buffer:
        return None
    try:
        contents = buffer.contents
        return ctypes.string_at(contents.data, contents.length) if contents.length else b""
    finally:
        _BUF_MEM_clear_free(buffer)


def _with_buffer(function, ctx, value):
    buffer = _buffer(value)
    try:
        return function(ctx, buffer)
    finally:
        _free(buffer)


# Library and context management.

def EAC_init():
    _EAC_init()


def EAC_CTX_new():
    return _EAC_CTX_new()


def EAC_CTX_clear_free(ctx):
    if ctx:
        _EAC_CTX_clear_free(ctx)


def EAC_CTX_init_ef_cardsecurity(ef_cardsecurity, ctx):
    data = _bytes(ef_cardsecurity)
    return _EAC_CTX_init_ef_cardsecurity(data, len(data), ctx)


def EAC_CTX_print_private(ctx, indent=0):
    # The C function prints the session keys and the PACE secret; nPA.py only logs the text.
    # Keys and secrets stay out of the test's logs.
    return "(EAC context: private fields are not printed by eid's test adapter)"


def EAC_CTX_set_encryption_ctx(ctx, id):
    return _EAC_CTX_set_encryption_ctx(ctx, id)


def print_ossl_err():
    """Prints and clears OpenSSL's error queue (to standard error); returns the text."""
    lines = []
    while True:
        code = _ERR_get_error()
        if not code:
            break
        text = ctypes.create_string_buffer(256)
        _ERR_error_string_n(code, text, len(text))
        lines.append(text.value.decode("ascii", "replace"))
    report = "\n".join(lines)
    if report:
        print(report, file=sys.stderr)
    return report


# Secure messaging (TR-03110 F.2): libeac keeps the SSC and the session keys in the context.

def EAC_increment_ssc(ctx):
    return _EAC_increment_ssc(ctx)


def EAC_encrypt(ctx, data):
    return _take(_with_buffer(_EAC_encrypt, ctx, data))


def EAC_decrypt(ctx, data):
    return _take(_with_buffer(_EAC_decrypt, ctx, data))


def EAC_authenticate(ctx, data):
    return _take(_with_buffer(_EAC_authenticate, ctx, data))


# Chip Authentication key material of the emulated card (nPA.py sets it up before PACE).

def CA_disable_passive_authentication(ctx):
    _CA_disable_passive_authentication(ctx)


def CA_get_pubkey(ctx, ef_cardsecurity):
    data = _bytes(ef_cardsecurity)
    return _take(_CA_get_pubkey(ctx, data, len(data)))


def CA_set_key(ctx, private_key, public_key):
    private_key, public_key = _bytes(private_key), _bytes(public_key)
    return _CA_set_key(ctx, private_key, len(private_key), public_key, len(public_key))


def CA_STEP2_get_eph_pubkey(ctx):
    return _take(_CA_STEP2_get_eph_pubkey(ctx))


def TA_STEP3_generate_ephemeral_key(ctx):
    return _take(_TA_STEP3_generate_ephemeral_key(ctx))


# Terminal Authentication, the card's side (eac.h, ta.h).

def EAC_CTX_init_ta(ctx, privkey, cvca):
    """The trust anchor of TA: `cvca` (a CV certificate, DER), or libeac's own store for None.
    A card has no terminal key: nPA.py passes None for `privkey`."""
    privkey = None if privkey is None else _bytes(privkey)
    cvca = None if cvca is None else _bytes(cvca)
    return _EAC_CTX_init_ta(
        ctx, privkey, 0 if privkey is None else len(privkey), cvca, 0 if cvca is None else len(cvca))


def TA_disable_checks(ctx):
    _TA_disable_checks(ctx)


def TA_STEP2_import_certificate(ctx, certificate):
    data = _bytes(certificate)
    return _TA_STEP2_import_certificate(ctx, data, len(data))


def TA_STEP4_get_nonce(ctx):
    return _take(_TA_STEP4_get_nonce(ctx))


def EAC_Comp(ctx, id, public_key):
    """Comp(PK): for an EC key its x-coordinate at field length (TR-03110-3 A.2.2.3, TR-03111
    FE2OS). libeac's Comp writes x with BN_bn2bin, which drops leading zero bytes, so for one
    key in 256 it is a byte short; nPA.py uses it for ID_PICC in TA, where the terminal signs
    the full x-coordinate, and the card then refused a correct signature. The adapter puts the
    zero bytes back, taking the field length from the uncompressed point 04 || X || Y."""
    comp = _take(_with_buffer(lambda c, b: _EAC_Comp(c, id, b), ctx, public_key))
    key = _bytes(public_key)
    if comp is not None and len(key) % 2 == 1 and key[:1] == b"\x04":
        comp = comp.rjust((len(key) - 1) // 2, b"\x00")
    return comp


def TA_STEP6_verify(ctx, terminal_key, id_picc, auxiliary_data, signature):
    """1 when `signature` is the terminal's over ID_PICC, the nonce of TA_STEP4, the
    compressed ephemeral key of MSE:Set AT and the auxiliary data."""
    buffers = [_buffer(terminal_key), _buffer(id_picc), None, _buffer(signature)]
    try:
        if auxiliary_data is not None:
            buffers[2] = _buffer(auxiliary_data)
        return _TA_STEP6_verify(ctx, buffers[0], buffers[1], buffers[2], buffers[3])
    finally:
        for buffer in buffers:
            _free(buffer)


# Chip Authentication, the card's side (ca.h).

def CA_STEP4_compute_shared_secret(ctx, public_key):
    return _with_buffer(_CA_STEP4_compute_shared_secret, ctx, public_key)


def CA_STEP5_derive_keys(ctx, public_key):
    """(nonce, authentication token), or (None, None) when libeac fails."""
    nonce, token = _BUF(), _BUF()
    buffer = _buffer(public_key)
    try:
        if _CA_STEP5_derive_keys(ctx, buffer, ctypes.byref(nonce), ctypes.byref(token)) != 1:
            _free(nonce)
            _free(token)
            return None, None
        return _take(nonce), _take(token)
    finally:
        _free(buffer)


# PACE, the card's side (pace.h).

def PACE_SEC_new(secret, secret_type):
    data = _bytes(secret)
    return _PACE_SEC_new(data, len(data), secret_type)


def PACE_SEC_clear_free(sec):
    if sec:
        _PACE_SEC_clear_free(sec)


def PACE_STEP1_enc_nonce(ctx, sec):
    return _take(_PACE_STEP1_enc_nonce(ctx, sec))


def PACE_STEP3A_generate_mapping_data(ctx):
    return _take(_PACE_STEP3A_generate_mapping_data(ctx))


def PACE_STEP3A_map_generator(ctx, mapping_data):
    return _with_buffer(_PACE_STEP3A_map_generator, ctx, mapping_data)


def PACE_STEP3B_generate_ephemeral_key(ctx):
    return _take(_PACE_STEP3B_generate_ephemeral_key(ctx))


def PACE_STEP3B_compute_shared_secret(ctx, public_key):
    return _with_buffer(_PACE_STEP3B_compute_shared_secret, ctx, public_key)


def PACE_STEP3C_derive_keys(ctx):
    return _PACE_STEP3C_derive_keys(ctx)


def PACE_STEP3D_compute_authentication_token(ctx, public_key):
    return _take(_with_buffer(_PACE_STEP3D_compute_authentication_token, ctx, public_key))


def PACE_STEP3D_verify_authentication_token(ctx, token):
    return _with_buffer(_PACE_STEP3D_verify_authentication_token, ctx, token)


def __getattr__(name):
    # Restricted Identification and the terminal's side are not part of what eid's tests drive;
    # say so instead of failing obscurely.
    raise AttributeError("eid's eac adapter does not provide %s (only the card side of PACE, TA and CA)" % name)
