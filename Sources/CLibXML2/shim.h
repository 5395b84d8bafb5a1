#ifndef UMILOG_CLIBXML2_SHIM_H
#define UMILOG_CLIBXML2_SHIM_H

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemas.h>
#include <libxml/xmlreader.h>
#include <libxml/c14n.h>

/// The SAX2 magic number, which Swift does not import from its macro form.
static inline unsigned int umilog_sax2_magic(void) { return XML_SAX2_MAGIC; }

/// libxml2's deallocator, which Swift imports as a mutable global.
static inline void umilog_xml_free(void *p) { xmlFree(p); }

#endif
