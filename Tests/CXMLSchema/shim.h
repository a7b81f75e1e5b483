// libxml2's XML Schema validation, for the tests only (ECardAPISchema). eid's own XML goes
// through Sources/CLibXML2; this target is separate so that the library's libxml2 shim stays
// as small as the library needs.
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemas.h>
