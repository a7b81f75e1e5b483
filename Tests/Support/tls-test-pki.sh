#!/usr/bin/env bash
# Certificates for TLSTests, made fresh in DIR on every run (openssl CLI): a test CA and server certificates
# for 127.0.0.1 — rsa3072, ec256 (P-256), brainpool256 (brainpoolP256r1), rsa2048 (too small), expired,
# wronghost (issued for wrong.example), wrongcn (no subjectAltName, only the common name wrongcn), badsig (ec256
# with its signature broken); ffdhe2048.pem (DH too small).
# Chains with a broken extension (X.509 path rules; the server sends NAME-chain.pem after the leaf):
# invalidca (RSA 3072, for RSA-PSK too; its issuer "notca" has basicConstraints CA:FALSE), pathlen (the root
# "ca-pathlen0" allows no intermediate, "sub" is one), clientauth (EKU clientAuth only), keyusage (RSA 3072,
# keyUsage keyCertSign only).
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
# issued NAME ISSUER EXTENSIONS KEYGEN-OPTIONS...: NAME.pem and NAME.key, for 127.0.0.1, issued by ISSUER.pem
issued() {
    local name=$1 issuer=$2 ext=$3; shift 3
    o genpkey "$@" -out "$name.key"
    o req -new -key "$name.key" -subj "/CN=$name" -out "$name.csr"
    printf '%b' "$ext" >"$name.ext"
    o x509 -req -in "$name.csr" -CA "$issuer.pem" -CAkey "$issuer.key" -CAcreateserial -days 2 -sha256 \
        -extfile "$name.ext" -out "$name.pem"
}
server='subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n'
ec=(-algorithm EC -pkeyopt ec_paramgen_curve:P-256)
issued notca ca 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,keyCertSign,digitalSignature\n' "${ec[@]}"
issued invalidca notca "$server" -algorithm RSA -pkeyopt rsa_keygen_bits:3072
cat notca.pem ca.pem >invalidca-chain.pem
o req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ca-pathlen0.key -out ca-pathlen0.pem \
    -days 2 -subj "/CN=eid TLSTests CA pathlen 0" -addext basicConstraints=critical,CA:TRUE,pathlen:0 \
    -addext keyUsage=critical,keyCertSign
issued sub ca-pathlen0 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign\n' "${ec[@]}"
issued pathlen sub "$server" "${ec[@]}"
cat sub.pem ca-pathlen0.pem >pathlen-chain.pem
issued clientauth ca 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n' "${ec[@]}"
cp ca.pem clientauth-chain.pem
issued keyusage ca "${server}keyUsage=critical,keyCertSign\n" -algorithm RSA -pkeyopt rsa_keygen_bits:3072
cp ca.pem keyusage-chain.pem
issued wrongcn ca 'basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' "${ec[@]}"
for f in rsa3072 ec256 brainpool256 rsa2048 wronghost expired badsig invalidca pathlen clientauth keyusage wrongcn; do o x509 -in "$f.pem" -outform DER -out "$f.der"; done
