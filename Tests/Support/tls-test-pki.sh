#!/usr/bin/env bash
# Certificates for TLSTests, made fresh in DIR on every run (openssl CLI): a test CA and server certificates
# for 127.0.0.1 — rsa3072, ec256 (P-256), brainpool256 (brainpoolP256r1), rsa2048 (too small), expired,
# wronghost (issued for wrong.example), badsig (ec256 with its signature broken); ffdhe2048.pem (DH too small).
#   tls-test-pki.sh DIR
set -euo pipefail
cd "$1"
o() { openssl "$@" 2>/dev/null; }
o req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ca.key -out ca.pem -days 2 \
    -subj "/CN=eid TLSTests CA" -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign
printf '[ca]\ndefault_ca=test\n[test]\ndatabase=index.txt\nnew_certs_dir=.\nserial=serial\ndefault_md=sha256\npolicy=any\n[any]\ncommonName=supplied\n' >ca.cnf
: >index.txt
echo 01 >serial
# leaf NAME SAN KEYGEN-OPTIONS... [-- CA-OPTIONS...]
leaf() {
    local name=$1 san=$2; shift 2
    local keygen=() sign=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do keygen+=("$1"); shift; done
    [ $# -gt 0 ] && { shift; sign=("$@"); }
    o genpkey "${keygen[@]}" -out "$name.key"
    o req -new -key "$name.key" -subj "/CN=$name" -out "$name.csr"
    printf 'subjectAltName=%s\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' "$san" >"$name.ext"
    if [ ${#sign[@]} -eq 0 ]; then sign=(-days 2); fi
    o ca -batch -notext -config ca.cnf -cert ca.pem -keyfile ca.key -in "$name.csr" -out "$name.pem" \
        -extfile "$name.ext" "${sign[@]}"
}
leaf rsa3072 IP:127.0.0.1 -algorithm RSA -pkeyopt rsa_keygen_bits:3072
leaf ec256 IP:127.0.0.1 -algorithm EC -pkeyopt ec_paramgen_curve:P-256
leaf brainpool256 IP:127.0.0.1 -algorithm EC -pkeyopt ec_paramgen_curve:brainpoolP256r1
leaf rsa2048 IP:127.0.0.1 -algorithm RSA -pkeyopt rsa_keygen_bits:2048
leaf wronghost DNS:wrong.example -algorithm EC -pkeyopt ec_paramgen_curve:P-256
leaf expired IP:127.0.0.1 -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -- \
    -startdate 20200101000000Z -enddate 20210101000000Z
# The last byte of the DER is the signature's: flip it.
o x509 -in ec256.pem -outform DER -out badsig.der
/usr/bin/python3 -c 'import sys; d = bytearray(open(sys.argv[1], "rb").read()); d[-1] ^= 1; open(sys.argv[1], "wb").write(d)' badsig.der
o x509 -inform DER -in badsig.der -out badsig.pem
cp ec256.key badsig.key
o genpkey -genparam -algorithm DH -pkeyopt group:ffdhe2048 -out ffdhe2048.pem
for f in rsa3072 ec256 brainpool256 rsa2048 wronghost expired badsig; do o x509 -in "$f.pem" -outform DER -out "$f.der"; done
