/* libxml2.so.2, loaded on first use (include/CLibXML2.h), with the memory functions that zero every
 * block before it is freed, and eid's one way of reading a document. When the library is missing, each
 * function answers as libxml2 answers a failure (NULL, -1, nothing); XMLTreeParser asks eid_xml_load
 * first and reports why. */
#include "include/CLibXML2.h"

#include <dlfcn.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void (*loaded_xmlInitParser)(void);
static void (*loaded_xmlFreeDoc)(xmlDocPtr);
static xmlNodePtr (*loaded_xmlDocGetRootElement)(const xmlDoc *);
static int (*loaded_xmlDictOwns)(xmlDictPtr, const xmlChar *);
static int (*loaded_xmlMemSetup)(xmlFreeFunc, xmlMallocFunc, xmlReallocFunc, xmlStrdupFunc);
static int (*loaded_xmlMemGet)(xmlFreeFunc *, xmlMallocFunc *, xmlReallocFunc *, xmlStrdupFunc *);
static xmlParserCtxtPtr (*loaded_xmlNewParserCtxt)(void);
static void (*loaded_xmlFreeParserCtxt)(xmlParserCtxtPtr);
static void (*loaded_xmlStopParser)(xmlParserCtxtPtr);
static xmlDocPtr (*loaded_xmlCtxtReadMemory)(xmlParserCtxtPtr, const char *, int, const char *, const char *, int);
static xmlErrorPtr (*loaded_xmlCtxtGetLastError)(void *);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *problem = "libxml2 is not loaded";
static char problem_text[512];
static int memory_installed = -1;

/* libxml2's memory functions with every block zeroed before it is freed. Blocks come from malloc;
 * their size is malloc_usable_size's, so a block libxml2 allocated before these were installed is
 * freed correctly too. */
static void wiping_free(void *block) {
    if (block == NULL) return;
    explicit_bzero(block, malloc_usable_size(block));
    free(block);
}

/* realloc that never leaves the old block behind unzeroed (it always moves). */
static void *wiping_realloc(void *block, size_t size) {
    if (block == NULL) return malloc(size);
    size_t old = malloc_usable_size(block);
    void *moved = malloc(size == 0 ? 1 : size);
    if (moved == NULL) return NULL;
    memcpy(moved, block, old < size ? old : size);
    wiping_free(block);
    return moved;
}

static char *duplicate(const char *string) { return strdup(string); }

/* The first missing function's name, or NULL. */
#define EID_RESOLVE(name)                                                                                  \
    if ((*(void **)&loaded_##name = dlsym(library, #name)) == NULL) return #name;

static const char *resolve(void *library) {
    EID_RESOLVE(xmlInitParser)
    EID_RESOLVE(xmlFreeDoc)
    EID_RESOLVE(xmlDocGetRootElement)
    EID_RESOLVE(xmlDictOwns)
    EID_RESOLVE(xmlMemSetup)
    EID_RESOLVE(xmlMemGet)
    EID_RESOLVE(xmlNewParserCtxt)
    EID_RESOLVE(xmlFreeParserCtxt)
    EID_RESOLVE(xmlStopParser)
    EID_RESOLVE(xmlCtxtReadMemory)
    EID_RESOLVE(xmlCtxtGetLastError)
    return NULL;
}

static void load(void) {
    void *library = dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(problem_text, sizeof problem_text,
                 "libxml2 is not installed (%s); eid needs it to read TcTokens and PAOS messages: apt install libxml2",
                 dlerror());
        problem = problem_text;
        return;
    }
    const char *missing = resolve(library);
    if (missing != NULL) {
        snprintf(problem_text, sizeof problem_text, "the installed libxml2 has no %s; eid needs libxml2 2.9 or newer",
                 missing);
        problem = problem_text;
        return;
    }
    /* Before libxml2 allocates anything, then its global initialisation (once, before parsing from
     * several threads). */
    memory_installed = loaded_xmlMemSetup(wiping_free, malloc, wiping_realloc, duplicate);
    loaded_xmlInitParser();
    problem = NULL;
}

const char *eid_xml_load(void) {
    pthread_once(&once, load);
    return problem;
}

int eid_xml_install_wiping_memory(void) {
    if (eid_xml_load() != NULL) return -1;
    return memory_installed;
}

int eid_xml_wipes_freed_memory(void) {
    if (eid_xml_load() != NULL) return 0;
    xmlFreeFunc freeFunction = NULL;
    xmlMallocFunc mallocFunction = NULL;
    xmlReallocFunc reallocFunction = NULL;
    xmlStrdupFunc strdupFunction = NULL;
    if (loaded_xmlMemGet(&freeFunction, &mallocFunction, &reallocFunction, &strdupFunction) != 0) return 0;
    return freeFunction == wiping_free && reallocFunction == wiping_realloc;
}

/* Called by libxml2 when it meets <!DOCTYPE …>, before it reads the internal subset: marks the
 * context and stops the parser, so no entity declaration or external subset is ever read. */
static void refuse_doctype(void *ctx, const xmlChar *name, const xmlChar *external_id, const xmlChar *system_id) {
    (void)name;
    (void)external_id;
    (void)system_id;
    xmlParserCtxtPtr ctxt = (xmlParserCtxtPtr)ctx;
    ctxt->_private = (void *)1;
    loaded_xmlStopParser(ctxt);
}

xmlDocPtr eid_xml_read(const char *bytes, int len, int *doctype, int *line) {
    *doctype = 0;
    *line = 0;
    if (eid_xml_load() != NULL) return NULL;
    xmlParserCtxtPtr ctxt = loaded_xmlNewParserCtxt();
    if (ctxt == NULL) return NULL;
    ctxt->sax->internalSubset = refuse_doctype;
    ctxt->_private = NULL;
    /* No XML_PARSE_NOENT (no entity substitution), no XML_PARSE_DTDLOAD/DTDATTR/DTDVALID,
     * no XML_PARSE_HUGE (libxml2's own size and depth limits stay on), no XInclude. */
    int options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA;
    xmlDocPtr doc = loaded_xmlCtxtReadMemory(ctxt, bytes, len, NULL, NULL, options);
    if (ctxt->_private != NULL) {
        *doctype = 1;
        if (doc != NULL) {
            loaded_xmlFreeDoc(doc);
            doc = NULL;
        }
    } else if (doc == NULL || !ctxt->wellFormed) {
        const xmlError *error = loaded_xmlCtxtGetLastError(ctxt);
        if (error != NULL) *line = error->line;
        if (doc != NULL) {
            loaded_xmlFreeDoc(doc);
            doc = NULL;
        }
    }
    loaded_xmlFreeParserCtxt(ctxt);
    return doc;
}

/* The libxml2 functions Swift calls, under their own names. */
void xmlInitParser(void) { (void)eid_xml_load(); }

void xmlFreeDoc(xmlDocPtr doc) {
    if (eid_xml_load() != NULL) return;
    loaded_xmlFreeDoc(doc);
}

xmlNodePtr xmlDocGetRootElement(const xmlDoc *doc) {
    if (eid_xml_load() != NULL) return NULL;
    return loaded_xmlDocGetRootElement(doc);
}

int xmlDictOwns(xmlDictPtr dict, const xmlChar *string) {
    if (eid_xml_load() != NULL) return -1;
    return loaded_xmlDictOwns(dict, string);
}
