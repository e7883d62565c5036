// The experiments' shared request options reads (request_options.h).
#include "request_options.h"

#include <algorithm>

namespace warpscope::experiments::detail {

Result<const nlohmann::json*> optionsObject(const nlohmann::json& request, std::string_view op,
                                            std::initializer_list<std::string_view> names) {
    const auto found = request.find("options");
    if (found == request.end()) {
        static const nlohmann::json kNone = nlohmann::json::object();
        return &kNone;
    }
    if (!found->is_object()) {
        return optionError("\"options\" must be an object", "/options");
    }
    for (const auto& item : found->items()) {
        if (std::find(names.begin(), names.end(), item.key()) != names.end()) {
            continue;
        }
        std::string list;
        for (const std::string_view* name = names.begin(); name != names.end(); ++name) {
            list += name == names.begin() ? "" : name + 1 == names.end() ? " and " : ", ";
            list += *name;
        }
        return optionError(std::string(op) + " takes no option \"" + item.key() +
                               "\"; the options are " + list,
                           "/options/" + item.key());
    }
    return &*found;
}

} // namespace warpscope::experiments::detail
