#ifndef CLIBXML2_H
#define CLIBXML2_H

/* libxml2 (Debian: libxml2), for a process that does not link it: libxml2.so.2 (and the ICU it brings)
 * is loaded (dlopen) on the first call that needs it, so a command that parses no XML never maps it
 * (README, "Memory"). XMLLibrary.c defines each libxml2 function Swift calls under its own name,
 * forwarding to the loaded library; eid_xml_load says whether that worked and why not.
 *
 * libxml/ here is a link to Debian's /usr/include/libxml2/libxml (libxml2-dev), so that the headers
 * resolve for every target that imports this module without pkg-config's -I (which would link
 * libxml2 too).
 *
 * The one way eid parses XML that comes from the network (Sources/Online/XML/XMLTreeParser.swift):
 * no DTD at all, so no entity is ever declared, loaded or expanded (no XXE, no billion laughs), no
 * network, no error printing. */
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlmemory.h>

/* Loads libxml2.so.2 once and installs the wiping memory functions before anything else is
 * allocated (later calls return the first answer): NULL when it is there with every function eid
 * calls, else a sentence that says what is missing and what to install. */
const char *eid_xml_load(void);

/* 0 when libxml2 frees through functions that zero every block before freeing it (eid_xml_load
 * installs them), so that no copy of a document (a TcToken's PSK) stays behind in freed memory:
 * the input buffer, the text nodes and their regrowths. */
int eid_xml_install_wiping_memory(void);

/* Whether libxml2 frees through the wiping functions. */
int eid_xml_wipes_freed_memory(void);

/* Parses `len` bytes into a tree the caller frees with xmlFreeDoc. Returns NULL when the document is
 * not well-formed (*doctype == 0) or declares a document type (*doctype == 1), or when libxml2 could not
 * be loaded (eid_xml_load says so); *line is the line of the first error, 0 if unknown. */
xmlDocPtr eid_xml_read(const char *bytes, int len, int *doctype, int *line);

#endif
