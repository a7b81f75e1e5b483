"""The `chat` module that vsmartcard's nPA emulator imports: owners of libeac objects.

Written for eid's tests over the `eac` adapter beside this file (see there why). EAC_CTX and
PACE_SEC own a libeac context and a PACE secret and free them (wiping the secret) when they go.
CHAT and CVC belong to Terminal Authentication, which an authentication terminal (MSE:Set AT
with a CHAT) starts: the card names its CVCA (--cvca) after PACE.
"""

import eac


class EAC_CTX(object):
    def __init__(self):
        self.ctx = eac.EAC_CTX_new()
        if not self.ctx:
            raise MemoryError("EAC_CTX_new")

    def __del__(self):
        eac.EAC_CTX_clear_free(getattr(self, "ctx", None))
        self.ctx = None


class PACE_SEC(object):
    def __init__(self, secret, secret_type):
        self.sec = eac.PACE_SEC_new(secret, secret_type)
        if not self.sec:
            raise ValueError("PACE_SEC_new refused the secret")

    def __del__(self):
        eac.PACE_SEC_clear_free(getattr(self, "sec", None))
        self.sec = None


class CHAT(object):
    """The CHAT of MSE:Set AT (7F4C, DER). The emulator only notes that one was sent (which
    starts Terminal Authentication); libeac checks the terminal's rights from its certificates."""

    def __init__(self, chat):
        self.chat = bytes(chat)


def _tlv(data):
    """The (tag, value) pairs of BER-TLV `data` (tags of one or two bytes, as CV certificates use)."""
    items, i = [], 0
    while i < len(data):
        tag = data[i]
        i += 1
        if tag & 0x1F == 0x1F:
            tag = (tag << 8) | data[i]
            i += 1
        length = data[i]
        i += 1
        if length & 0x80:
            count = length & 0x7F
            length = int.from_bytes(data[i:i + count], "big")
            i += count
        items.append((tag, data[i:i + length]))
        i += length
    return items


class CVC(object):
    """A CV certificate (7F21); nPA.py asks it for its holder reference (the CAR the card names
    after PACE)."""

    def __init__(self, certificate):
        certificate = bytes(certificate)
        outer = _tlv(certificate)
        if len(outer) != 1 or outer[0][0] != 0x7F21:
            raise ValueError("not a CV certificate")
        body = dict(_tlv(outer[0][1])).get(0x7F4E)
        if body is None:
            raise ValueError("a CV certificate without a body")
        self.fields = dict(_tlv(body))

    def get_chr(self):
        return self.fields[0x5F20]
