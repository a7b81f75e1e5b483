#ifndef CPCSC_SHIM_H
#define CPCSC_SHIM_H

/* libpcsclite (Debian: libpcsclite-dev), plus typed inline functions for what Swift cannot
 * import from it: the macros SCARD_PCI_T0/T1, SCARD_CTL_CODE, CM_IOCTL_GET_FEATURE_REQUEST,
 * and MAX_BUFFER_SIZE_EXTENDED. */
#include <winscard.h>
#include <reader.h>

static inline const SCARD_IO_REQUEST *cpcsc_pci_t0(void) { return SCARD_PCI_T0; }
static inline const SCARD_IO_REQUEST *cpcsc_pci_t1(void) { return SCARD_PCI_T1; }
static inline DWORD cpcsc_ctl_code(DWORD code) { return SCARD_CTL_CODE(code); }
static inline DWORD cpcsc_feature_request_code(void) { return CM_IOCTL_GET_FEATURE_REQUEST; }
static inline DWORD cpcsc_max_buffer_size_extended(void) { return MAX_BUFFER_SIZE_EXTENDED; }

#endif
