#ifndef UMILOG_CLIBXML2_SHIM_H
#define UMILOG_CLIBXML2_SHIM_H

/* Debian's libxml2 is built with ICU, and its encoding.h includes <unicode/ucnv.h> for two
   types it only points to. Foundation carries an ICU of its own, so a Swift module that sees
   this module and Foundation at once meets two definitions of UErrorCode and fails to build
   (whichever the build loads first). libxml2's headers need nothing of ICU but an opaque
   UConverter and the UChar code unit: declared here, with ucnv.h's include guard set, no ICU
   header is read. */
#include <stdint.h>
#ifndef UCNV_H
#define UCNV_H
typedef struct UConverter UConverter;
typedef uint16_t UChar;
#endif

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
