/*
 * The floor for reading UDDF with libxml2: what umilog's reader does with the parser and no
 * more. The file is read 256 KiB at a time into libxml2's SAX2 push parser with the options
 * umilog sets (NONET, NOCDATA, NOENT), the element path is kept as a stack of names, and the
 * text of every <depth> is summed. Prints the number of <depth> values and their sum, so the
 * work cannot be optimised away and the result can be checked against umilog's.
 *
 *   cc -O2 scripts/bench/sax2-floor.c $(pkg-config --cflags --libs libxml-2.0) -o sax2-floor
 *   ./sax2-floor FILE.uddf
 *
 * Not part of umilog or its tests: scripts/bench.sh builds and times it beside umilog.
 */
#include <fcntl.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHUNK (256 * 1024)
#define MAX_DEPTH 256

struct state {
    const xmlChar *open[MAX_DEPTH];
    int depth;
    int inDepth;
    char text[64];
    size_t textLength;
    long count;
    double sum;
};

static void start(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri,
                  int nbNamespaces, const xmlChar **namespaces, int nbAttributes, int nbDefaulted,
                  const xmlChar **attributes) {
    struct state *s = ctx;
    (void)prefix; (void)uri; (void)nbNamespaces; (void)namespaces; (void)nbAttributes; (void)nbDefaulted; (void)attributes;
    if (s->depth < MAX_DEPTH) s->open[s->depth] = localname;
    s->depth++;
    if (strcmp((const char *)localname, "depth") == 0) {
        s->inDepth = 1;
        s->textLength = 0;
    }
}

static void end(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri) {
    struct state *s = ctx;
    (void)prefix; (void)uri;
    if (s->inDepth && strcmp((const char *)localname, "depth") == 0) {
        s->text[s->textLength] = 0;
        s->sum += strtod(s->text, NULL);
        s->count++;
        s->inDepth = 0;
    }
    if (s->depth > 0) s->depth--;
}

static void characters(void *ctx, const xmlChar *bytes, int length) {
    struct state *s = ctx;
    if (!s->inDepth) return;
    size_t room = sizeof s->text - 1 - s->textLength;
    size_t n = (size_t)length < room ? (size_t)length : room;
    memcpy(s->text + s->textLength, bytes, n);
    s->textLength += n;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: sax2-floor FILE\n");
        return 2;
    }
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) {
        perror(argv[1]);
        return 1;
    }
    xmlInitParser();
    xmlSAXHandler sax;
    memset(&sax, 0, sizeof sax);
    sax.initialized = XML_SAX2_MAGIC;
    sax.startElementNs = start;
    sax.endElementNs = end;
    sax.characters = characters;
    sax.cdataBlock = characters;
    struct state s;
    memset(&s, 0, sizeof s);
    xmlParserCtxtPtr ctxt = xmlCreatePushParserCtxt(&sax, &s, NULL, 0, argv[1]);
    xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_NOCDATA | XML_PARSE_NOENT);
    static char buffer[CHUNK];
    ssize_t n;
    while ((n = read(fd, buffer, sizeof buffer)) > 0) {
        if (xmlParseChunk(ctxt, buffer, (int)n, 0) != 0) break;
    }
    int status = xmlParseChunk(ctxt, NULL, 0, 1);
    close(fd);
    xmlFreeParserCtxt(ctxt);
    if (status != 0) {
        fprintf(stderr, "%s: not well-formed XML\n", argv[1]);
        return 1;
    }
    printf("%ld depths, sum %.3f m\n", s.count, s.sum);
    return 0;
}
