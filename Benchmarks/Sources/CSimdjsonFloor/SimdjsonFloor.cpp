// simdjson behind the plain C of include/CSimdjsonFloor.h: the parse floor of the `open` workload.
#include "CSimdjsonFloor.h"

#include <simdjson.h>

#include <new>
#include <vector>

using namespace simdjson;

struct rizq_simdjson_parser {
    ondemand::parser onDemand;
    dom::parser dom;
    /// Kept from one parse to the next, so that only the first parse grows it (a push_back that
    /// runs out of memory ends the benchmark: std::terminate, through noexcept).
    std::vector<rizq_simdjson_member> members;
    const char *error = "";
};

namespace {

error_code visitAny(ondemand::value value, uint64_t &sum) noexcept;

/// Visits a value: every scalar read (numbers parsed, strings unescaped), every container
/// walked, its sum added to `sum`. The integer parser is tried first, before asking the value's
/// type (nearly every value of a suite is an integer, and ours reads integers first too: the
/// generic path — type(), then the number's kind — takes twice as long over a file of
/// integers); a failed get_int64() leaves the value where it was, for the generic path.
simdjson_inline error_code visit(ondemand::value value, uint64_t &sum) noexcept {
    int64_t integer;
    if (value.get_int64().get(integer) == SUCCESS) {
        sum += uint64_t(integer);
        return SUCCESS;
    }
    return visitAny(value, sum);
}

error_code visitObject(ondemand::object object, uint64_t &sum) noexcept {
    for (auto field : object) {
        std::string_view key;
        SIMDJSON_TRY(field.unescaped_key().get(key));
        sum += key.size();
        ondemand::value value;
        SIMDJSON_TRY(field.value().get(value));
        SIMDJSON_TRY(visit(value, sum));
    }
    return SUCCESS;
}

error_code visitAny(ondemand::value value, uint64_t &sum) noexcept {
    ondemand::json_type type;
    SIMDJSON_TRY(value.type().get(type));
    switch (type) {
    case ondemand::json_type::object: {
        ondemand::object object;
        SIMDJSON_TRY(value.get_object().get(object));
        return visitObject(object, sum);
    }
    case ondemand::json_type::array: {
        ondemand::array array;
        SIMDJSON_TRY(value.get_array().get(array));
        for (auto element : array) {
            ondemand::value item;
            SIMDJSON_TRY(element.get(item));
            SIMDJSON_TRY(visit(item, sum));
        }
        return SUCCESS;
    }
    case ondemand::json_type::number: {
        // Not an int64 (visit() tried): an unsigned integer above it, or a double.
        uint64_t large;
        if (value.get_uint64().get(large) == SUCCESS) {
            sum += large;
            return SUCCESS;
        }
        double real;
        SIMDJSON_TRY(value.get_double().get(real));
        sum += real != 0;
        return SUCCESS;
    }
    case ondemand::json_type::string: {
        std::string_view text;
        SIMDJSON_TRY(value.get_string().get(text));
        sum += text.size();
        return SUCCESS;
    }
    case ondemand::json_type::boolean: {
        bool flag;
        SIMDJSON_TRY(value.get_bool().get(flag));
        sum += flag;
        return SUCCESS;
    }
    case ondemand::json_type::null: {
        bool isNull;
        SIMDJSON_TRY(value.is_null().get(isNull));
        return isNull ? SUCCESS : INCORRECT_TYPE;
    }
    }
    return INCORRECT_TYPE;
}

error_code parseOnDemand(rizq_simdjson_parser &parser, const uint8_t *bytes, size_t length, uint64_t &sum) noexcept {
    ondemand::document document;
    SIMDJSON_TRY(parser.onDemand.iterate(padded_string_view(bytes, length, length + SIMDJSON_PADDING)).get(document));
    ondemand::object object;
    SIMDJSON_TRY(document.get_object().get(object));
    for (auto field : object) {
        std::string_view key;
        SIMDJSON_TRY(field.unescaped_key().get(key));
        parser.members.push_back({key.data(), key.size()});
        ondemand::value value;
        SIMDJSON_TRY(field.value().get(value));
        SIMDJSON_TRY(visit(value, sum));
    }
    // Nothing may follow the object (on-demand checks only what it visits): past the end, the
    // document has no current location (simdjson 3.0 has no document::at_end()).
    return document.current_location().error() == SUCCESS ? TRAILING_CONTENT : SUCCESS;
}

/// The DOM's counterpart of `visit`: the tape holds every value parsed already.
void visit(dom::element element, uint64_t &sum) noexcept {
    switch (element.type()) {
    case dom::element_type::OBJECT:
        for (auto field : element.get_object().value_unsafe()) {
            sum += field.key.size();
            visit(field.value, sum);
        }
        break;
    case dom::element_type::ARRAY:
        for (auto item : element.get_array().value_unsafe()) visit(item, sum);
        break;
    case dom::element_type::INT64: sum += uint64_t(element.get_int64().value_unsafe()); break;
    case dom::element_type::UINT64: sum += element.get_uint64().value_unsafe(); break;
    case dom::element_type::DOUBLE: sum += element.get_double().value_unsafe() != 0; break;
    case dom::element_type::STRING: sum += element.get_string().value_unsafe().size(); break;
    case dom::element_type::BOOL: sum += element.get_bool().value_unsafe(); break;
    case dom::element_type::NULL_VALUE: break;
    }
}

error_code parseDOM(rizq_simdjson_parser &parser, const uint8_t *bytes, size_t length, uint64_t &sum) noexcept {
    dom::element root;
    // The caller's buffer is padded: no copy (realloc_if_needed: false).
    SIMDJSON_TRY(parser.dom.parse(bytes, length, false).get(root));
    dom::object object;
    SIMDJSON_TRY(root.get_object().get(object));
    for (auto field : object) {
        parser.members.push_back({field.key.data(), field.key.size()});
        visit(field.value, sum);
    }
    return SUCCESS;
}

} // namespace

extern "C" {

size_t rizq_simdjson_padding(void) { return SIMDJSON_PADDING; }

const char *rizq_simdjson_active_implementation(void) {
    return get_active_implementation()->name().c_str();
}

const char *rizq_simdjson_builtin_implementation(void) {
    // The header's choice, made at compile time (the library's builtin_implementation() is its own).
    return SIMDJSON_STRINGIFY(SIMDJSON_BUILTIN_IMPLEMENTATION);
}

rizq_simdjson_parser *rizq_simdjson_parser_create(void) {
    return new (std::nothrow) rizq_simdjson_parser();
}

void rizq_simdjson_parser_destroy(rizq_simdjson_parser *parser) { delete parser; }

long rizq_simdjson_parse(rizq_simdjson_parser *parser, rizq_simdjson_mode mode,
                         const uint8_t *bytes, size_t length, uint64_t *checksum) {
    parser->members.clear();
    parser->error = "";
    uint64_t sum = 0;
    error_code error = mode == RIZQ_SIMDJSON_DOM ? parseDOM(*parser, bytes, length, sum)
                                                 : parseOnDemand(*parser, bytes, length, sum);
    if (error != SUCCESS) {
        parser->error = error_message(error);
        parser->members.clear();
        return -1;
    }
    *checksum = sum;
    return long(parser->members.size());
}

const rizq_simdjson_member *rizq_simdjson_members(const rizq_simdjson_parser *parser) {
    return parser->members.data();
}

const char *rizq_simdjson_error(const rizq_simdjson_parser *parser) { return parser->error; }

} // extern "C"
