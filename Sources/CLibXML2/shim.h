#ifndef CLIBXML2_SHIM_H
#define CLIBXML2_SHIM_H

/* libxml2 (Debian: libxml2-dev), and the one way eid parses XML that comes from the network
 * (Sources/Online/XML/XMLTreeParser.swift): no DTD at all, so no entity is ever declared,
 * loaded or expanded (no XXE, no billion laughs), no network, no error printing. */
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlmemory.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

/* libxml2's memory functions with every block zeroed before it is freed, so that no copy of a
 * document (a TcToken's PSK) stays behind in freed memory: the input buffer, the text nodes and
 * their regrowths. Blocks come from malloc; their size is malloc_usable_size's, so a block
 * libxml2 allocated before these were installed is freed correctly too. */
static void eid_xml_wiping_free(void *block) {
    if (block == NULL) return;
    explicit_bzero(block, malloc_usable_size(block));
    free(block);
}

/* realloc that never leaves the old block behind unzeroed (it always moves). */
static void *eid_xml_wiping_realloc(void *block, size_t size) {
    if (block == NULL) return malloc(size);
    size_t old = malloc_usable_size(block);
    void *moved = malloc(size == 0 ? 1 : size);
    if (moved == NULL) return NULL;
    memcpy(moved, block, old < size ? old : size);
    eid_xml_wiping_free(block);
    return moved;
}

static char *eid_xml_strdup(const char *string) { return strdup(string); }

/* Installs the wiping functions (before xmlInitParser); 0 on success. */
static inline int eid_xml_install_wiping_memory(void) {
    return xmlMemSetup(eid_xml_wiping_free, malloc, eid_xml_wiping_realloc, eid_xml_strdup);
}

/* Whether libxml2 frees through the wiping functions. */
static inline int eid_xml_wipes_freed_memory(void) {
    xmlFreeFunc freeFunction = NULL;
    xmlMallocFunc mallocFunction = NULL;
    xmlReallocFunc reallocFunction = NULL;
    xmlStrdupFunc strdupFunction = NULL;
    if (xmlMemGet(&freeFunction, &mallocFunction, &reallocFunction, &strdupFunction) != 0) return 0;
    return freeFunction == eid_xml_wiping_free && reallocFunction == eid_xml_wiping_realloc;
}

/* Called by libxml2 when it meets <!DOCTYPE …>, before it reads the internal subset: marks the
 * context and stops the parser, so no entity declaration or external subset is ever read. */
static void eid_xml_refuse_doctype(void *ctx, const xmlChar *name, const xmlChar *external_id,
                                   const xmlChar *system_id) {
    (void)name;
    (void)external_id;
    (void)system_id;
    xmlParserCtxtPtr ctxt = (xmlParserCtxtPtr)ctx;
    ctxt->_private = (void *)1;
    xmlStopParser(ctxt);
}

/* Parses `len` bytes into a tree the caller frees with xmlFreeDoc. Returns NULL when the
 * document is not well-formed (*doctype == 0) or declares a document type (*doctype == 1);
 * *line is the line of the first error, 0 if unknown. */
static inline xmlDocPtr eid_xml_read(const char *bytes, int len, int *doctype, int *line) {
    *doctype = 0;
    *line = 0;
    xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
    if (ctxt == NULL) return NULL;
    ctxt->sax->internalSubset = eid_xml_refuse_doctype;
    ctxt->_private = NULL;
    /* No XML_PARSE_NOENT (no entity substitution), no XML_PARSE_DTDLOAD/DTDATTR/DTDVALID,
     * no XML_PARSE_HUGE (libxml2's own size and depth limits stay on), no XInclude. */
    int options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA;
    xmlDocPtr doc = xmlCtxtReadMemory(ctxt, bytes, len, NULL, NULL, options);
    if (ctxt->_private != NULL) {
        *doctype = 1;
        if (doc != NULL) {
            xmlFreeDoc(doc);
            doc = NULL;
        }
    } else if (doc == NULL || !ctxt->wellFormed) {
        const xmlError *error = xmlCtxtGetLastError(ctxt);
        if (error != NULL) *line = error->line;
        if (doc != NULL) {
            xmlFreeDoc(doc);
            doc = NULL;
        }
    }
    xmlFreeParserCtxt(ctxt);
    return doc;
}

#endif
