"""The `chat` module that vsmartcard's nPA emulator imports: owners of libeac objects.

Written for eid's tests over the `eac` adapter beside this file (see there why). EAC_CTX and
PACE_SEC own a libeac context and a PACE secret and free them (wiping the secret) when they go.
CHAT and CVC belong to Terminal Authentication, which a PIN management terminal such as
`eid change-pin` does not start (its MSE:Set AT carries no CHAT); they refuse clearly.
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
    def __init__(self, chat):
        raise NotImplementedError("eid's test adapter has no CHAT support (Terminal Authentication)")


class CVC(object):
    def __init__(self, certificate):
        raise NotImplementedError("eid's test adapter has no CV certificate support (Terminal Authentication)")
