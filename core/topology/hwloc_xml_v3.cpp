#include "topology/hwloc_xml_v3.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

namespace schedscope {
namespace {

struct DocFree {
    void operator()(xmlDoc* d) const { xmlFreeDoc(d); }
};
using Doc = std::unique_ptr<xmlDoc, DocFree>;

struct XmlFree {
    void operator()(xmlChar* p) const { xmlFree(p); }
};
using XmlString = std::unique_ptr<xmlChar, XmlFree>;

const xmlChar* name(const char* s) { return reinterpret_cast<const xmlChar*>(s); }

bool isElement(const xmlNode* n, const char* tag) {
    return n->type == XML_ELEMENT_NODE && xmlStrEqual(n->name, name(tag));
}

std::string attribute(xmlNode* n, const char* attr) {
    XmlString v(xmlGetProp(n, name(attr)));
    return v ? reinterpret_cast<const char*>(v.get()) : "";
}

// hwloc_distances_kind_e: 3.0 gave XGMIHops the new VALUE_HOPS kind; 2.x called it latency.
constexpr unsigned long kKindValueLatency = 1UL << 2;
constexpr unsigned long kKindValueHops = 1UL << 5;

void restoreXgmiLatencyKind(xmlNode* distances) {
    if (attribute(distances, "name") != "XGMIHops") return;
    const std::string text = attribute(distances, "kind");
    char* end = nullptr;
    unsigned long kind = std::strtoul(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || !(kind & kKindValueHops)) return;
    kind = (kind & ~kKindValueHops) | kKindValueLatency;
    xmlSetProp(distances, name("kind"), name(std::to_string(kind).c_str()));
}

// Walks the object tree: cache_inclusive="1" becomes <info name="Inclusive" value="1"/>.
void restoreInclusiveInfos(xmlNode* object) {
    if (xmlHasProp(object, name("cache_inclusive"))) {
        const std::string inclusive = attribute(object, "cache_inclusive");
        xmlUnsetProp(object, name("cache_inclusive"));
        xmlNode* info = xmlNewNode(nullptr, name("info"));
        xmlNewProp(info, name("name"), name("Inclusive"));
        xmlNewProp(info, name("value"), name(inclusive.c_str()));
        if (object->children) xmlAddPrevSibling(object->children, info);
        else xmlAddChild(object, info);
    }
    for (xmlNode* c = object->children; c; c = c->next)
        if (isElement(c, "object")) restoreInclusiveInfos(c);
}

// libxml2's last error as "line N: message" on one line.
std::string lastXmlError() {
    const xmlError* e = xmlGetLastError();
    if (!e || !e->message) return "not well-formed XML";
    std::string msg = e->message;
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
    return "line " + std::to_string(e->line) + ": " + escapeControl(msg);
}

// The leading number of a version string ("3.0" is 3), 0 when it has none.
int majorOf(std::string_view version) {
    int major = 0;
    size_t i = 0;
    for (; i < version.size() && version[i] >= '0' && version[i] <= '9' && major < 1000; ++i)
        major = major * 10 + (version[i] - '0');
    return i > 0 ? major : 0;
}

}  // namespace

int hwlocXmlMajorVersion(std::string_view head) {
    // the root element's version attribute as XML allows it to be written: spaces around the
    // '=', either quote (<topology  version = '3.0' >), after other attributes
    size_t at = head.find("<topology");
    while (at != std::string_view::npos && at + 9 < head.size() && head[at + 9] != ' ' && head[at + 9] != '\t' &&
           head[at + 9] != '\n' && head[at + 9] != '\r' && head[at + 9] != '>')
        at = head.find("<topology", at + 9);  // <topologyfoo>: not the root
    if (at == std::string_view::npos) return 0;
    const std::string_view tag = head.substr(at, head.find('>', at) - at);
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    for (size_t v = tag.find("version"); v != std::string_view::npos; v = tag.find("version", v + 7)) {
        if (v == 0 || !space(tag[v - 1])) continue;
        size_t i = v + 7;
        while (i < tag.size() && space(tag[i])) ++i;
        if (i >= tag.size() || tag[i] != '=') continue;
        ++i;
        while (i < tag.size() && space(tag[i])) ++i;
        if (i >= tag.size() || (tag[i] != '"' && tag[i] != '\'')) continue;
        return majorOf(tag.substr(i + 1));
    }
    return 0;
}

Result<std::string> hwloc3XmlAsV2(const std::string& path) {
    xmlInitParser();
    xmlResetLastError();
    // no network, no entity expansion, no DTD fetch: the file's bytes and nothing else;
    // libxml2's own error printing off (the error comes back in the Result)
    Doc doc(xmlReadFile(path.c_str(), nullptr, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING));
    if (!doc) return Error{path + ": malformed hwloc XML (" + lastXmlError() + ")"};
    xmlNode* root = xmlDocGetRootElement(doc.get());
    if (!root || !isElement(root, "topology") || majorOf(attribute(root, "version")) != 3)
        return Error{path + ": not an hwloc 3.x XML topology (no <topology version=\"3.x\"> root element)"};
    xmlSetProp(root, name("version"), name("2.0"));

    xmlNode* machine = nullptr;
    std::vector<xmlNode*> topologyInfos;
    for (xmlNode* c = root->children; c; c = c->next) {
        if (!machine && isElement(c, "object")) machine = c;
        else if (isElement(c, "info")) topologyInfos.push_back(c);
        else if (isElement(c, "distances2") || isElement(c, "distances2hetero")) restoreXgmiLatencyKind(c);
    }
    if (!machine) return Error{path + ": malformed hwloc XML (no root object)"};
    restoreInclusiveInfos(machine);
    // 2.x reads the topology-wide infos from the root object, after its own infos
    xmlNode* firstChild = machine->children;
    while (firstChild && (firstChild->type != XML_ELEMENT_NODE || isElement(firstChild, "info")))
        firstChild = firstChild->next;
    for (xmlNode* info : topologyInfos) {
        xmlUnlinkNode(info);
        if (firstChild) xmlAddPrevSibling(firstChild, info);
        else xmlAddChild(machine, info);
    }

    xmlChar* bytes = nullptr;
    int size = 0;
    xmlDocDumpMemory(doc.get(), &bytes, &size);
    if (!bytes || size <= 0) return Error{path + ": cannot rewrite this hwloc 3.x XML (out of memory)"};
    XmlString owned(bytes);
    return std::string(reinterpret_cast<const char*>(bytes), static_cast<size_t>(size));
}

}  // namespace schedscope
