#ifndef CLIBXML2_SHIM_H
#define CLIBXML2_SHIM_H

/* libxml2 (Debian: libxml2-dev), and the one way eid parses XML that comes from the network
 * (Sources/Online/XML/XMLTreeParser.swift): no DTD at all, so no entity is ever declared,
 * loaded or expanded (no XXE, no billion laughs), no network, no error printing. */
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

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
